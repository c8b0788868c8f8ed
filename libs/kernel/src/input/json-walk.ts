/**
 * Visits every value of a parsed JSON document (or a query object) without
 * recursion, so that no input, however deep, can overflow the stack. Paths
 * read as a person would write them: `payerData.address.city`, `items[2]`.
 */
export type JsonVisitor = (path: string, value: unknown, key: string | null) => void;

export function walkJson(root: unknown, visit: JsonVisitor): void {
  const stack: { path: string; value: unknown; key: string | null }[] = [{ path: '', value: root, key: null }];
  while (stack.length > 0) {
    const { path, value, key } = stack.pop()!;
    visit(path, value, key);
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ path: `${path}[${index}]`, value: value[index], key: null });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [name, item] = entries[index];
        stack.push({ path: path ? `${path}.${name}` : name, value: item, key: name });
      }
    }
  }
}
