/**
 * Reads until `done` holds or `seconds` pass, and answers the last read
 * (the test then asserts on it, so a timeout fails with what was seen).
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, seconds = 20): Promise<T> {
  const until = Date.now() + seconds * 1000;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    value = await read();
  }
  return value;
}
