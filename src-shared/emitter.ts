/** Listeners of one kind of news: `on` adds one and returns its disposer; `fire` tells each, in the order added. */
export interface Emitter<T> {
  on(listener: (value: T) => void): () => void
  fire(value: T): void
}

export function createEmitter<T = void>(): Emitter<T> {
  const listeners = new Set<(value: T) => void>()
  return {
    on(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    fire(value) {
      // A copy: a listener may dispose itself (or add another) while being told.
      for (const listener of [...listeners]) listener(value)
    },
  }
}
