/**
 * A schema built the first time anything reads it. Loading the contract built ~1,000 zod schemas at once — about a
 * third of what a one-shot `agentry run` costs before its first request — although a process uses a few dozen. The
 * proxy forwards every read (parse, shape, `_zod`, `instanceof`) to the schema it builds once, so callers, zod itself
 * and `z.infer` see an ordinary schema.
 */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined
  const target = (): T => (built ??= build())
  return new Proxy(Object.create(null) as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    ownKeys: () => Reflect.ownKeys(target()),
    // Reported as configurable: the proxy's own (empty) target must not be asked to hold the schema's properties.
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key)
      return d && { ...d, configurable: true }
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    defineProperty: (_, key, d) => Reflect.defineProperty(target(), key, d),
  })
}
