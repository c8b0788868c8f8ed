/**
 * Visits every value of a parsed JSON document (or a query object) without
 * recursion, so that no input, however deep, can overflow the stack. A value's
 * path reads as a person would write it (`payerData.address.city`,
 * `items[2]`) and is spelled only when asked for (`pathOf`): a walk that finds
 * nothing, the common case, builds no strings.
 */
export interface JsonNode {
  readonly value: unknown;
  /** The member's name when the value is an object's member, else null. */
  readonly key: string | null;
  /** The element's index when the value is an array's element, else -1. */
  readonly index: number;
  readonly parent: JsonNode | null;
}

export type JsonVisitor = (node: JsonNode) => void;

export function walkJson(root: unknown, visit: JsonVisitor): void {
  const stack: JsonNode[] = [{ value: root, key: null, index: -1, parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    const value = node.value;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], key: null, index, parent: node });
    } else if (value !== null && typeof value === 'object') {
      const names = Object.keys(value);
      for (let index = names.length - 1; index >= 0; index--) {
        const name = names[index];
        stack.push({ value: (value as Record<string, unknown>)[name], key: name, index: -1, parent: node });
      }
    }
  }
}

/** The node's path from the root ('' for the root itself), built without recursion (a path may be 100,000 levels deep). */
export function pathOf(node: JsonNode): string {
  const chain: JsonNode[] = [];
  for (let at: JsonNode | null = node; at?.parent; at = at.parent) chain.push(at);
  let path = '';
  for (let i = chain.length - 1; i >= 0; i--) {
    const { key, index } = chain[i];
    path = key === null ? `${path}[${index}]` : path ? `${path}.${key}` : key;
  }
  return path;
}
