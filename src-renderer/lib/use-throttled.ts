import { useEffect, useState } from 'react'
import type { StoreApi, UseBoundStore } from 'zustand'

/**
 * A store's slice, re-read at most once per `ms`: for views of fast-changing state (a map of hundreds of agents under
 * a streaming fan-out) that a person cannot read faster anyway. The first change after a quiet spell shows at once.
 */
export function useThrottled<S, T>(store: UseBoundStore<StoreApi<S>>, select: (s: S) => T, ms: number): T {
  const [value, setValue] = useState(() => select(store.getState()))
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null
    let last = 0
    const read = () => {
      timer = null
      last = Date.now()
      setValue(select(store.getState()))
    }
    read()
    const stop = store.subscribe((now, before) => {
      if (timer !== null || Object.is(select(now), select(before))) return
      timer = setTimeout(read, Math.max(0, last + ms - Date.now()))
    })
    return () => {
      stop()
      if (timer !== null) clearTimeout(timer)
    }
    // `select` must be a stable (module-level) function: it is read once per subscription.
  }, [store, ms])
  return value
}
