import type { Root } from 'hast'
import { useSyncExternalStore } from 'react'
import { grammarName, loadGrammar } from './languages'

/**
 * Code highlighting with lowlight (highlight.js grammars, output as class names styled by our theme variables).
 * Nothing of it is in the first bundle: lowlight and each grammar load the first time a code block needs them,
 * and until then the block shows plain text of the same size, so nothing moves when the colours arrive.
 */

type Lowlight = ReturnType<typeof import('lowlight').createLowlight>

/** Very long blocks stay plain: highlighting must never be what makes a long transcript slow. */
const MAX_CHARS = 50_000

let lowlight: Lowlight | null = null
let core: Promise<Lowlight> | null = null
const ready = new Set<string>()
const loading = new Map<string, Promise<void>>()
const failed = new Set<string>()
let version = 0
const listeners = new Set<() => void>()

function changed(): void {
  version++
  for (const l of listeners) l()
}

function loadCore(): Promise<Lowlight> {
  core ??= import('lowlight').then((m) => (lowlight = m.createLowlight()))
  return core
}

/** Starts loading the grammar; subscribers re-render when it is there. */
export function ensureGrammar(name: string): Promise<void> {
  if (ready.has(name) || failed.has(name)) return Promise.resolve()
  let p = loading.get(name)
  if (!p) {
    p = Promise.all([loadCore(), loadGrammar(name)])
      .then(([ll, grammar]) => {
        ll.register(name, grammar)
        ready.add(name)
      })
      .catch((err: unknown) => {
        // A chunk that fails to load (offline build mismatch) leaves the block plain; say so once in the console.
        failed.add(name)
        console.warn(`[agentry] could not load the ${name} highlighter; code stays plain:`, err)
      })
      .finally(() => {
        loading.delete(name)
        changed()
      })
    loading.set(name, p)
  }
  return p
}

/** The highlighted tree, or null while the grammar loads (or for code we do not highlight). */
export function highlightTree(code: string, info: string): Root | null {
  const name = grammarName(info)
  if (!name || name === 'plaintext' || code.length > MAX_CHARS) return null
  if (!lowlight || !ready.has(name)) {
    void ensureGrammar(name)
    return null
  }
  return lowlight.highlight(name, code)
}

function subscribe(cb: () => void): () => void {
  listeners.add(cb)
  return () => listeners.delete(cb)
}

/** Re-renders the caller when any grammar finished loading. */
export function useGrammarVersion(): number {
  return useSyncExternalStore(subscribe, () => version, () => version)
}
