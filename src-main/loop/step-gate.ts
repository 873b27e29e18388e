import type { Transcript } from './transcript'

/**
 * A model step in flight on a transcript. A message that arrives from outside the run meanwhile (a background
 * child's result) is stored only once the step is: the conversation then reads in the order the model saw it — a
 * result that came while the model was answering follows that answer, and wakes the session, instead of sitting
 * before an answer that never read it.
 */
interface Gate {
  stepping: boolean
  waiting: (() => void)[]
}

const gates = new WeakMap<Transcript, Gate>()

function gateOf(transcript: Transcript): Gate {
  let gate = gates.get(transcript)
  if (!gate) gates.set(transcript, (gate = { stepping: false, waiting: [] }))
  return gate
}

/** A request is about to be built from this transcript. */
export function beginStep(transcript: Transcript): void {
  gateOf(transcript).stepping = true
}

/** The step's answer is stored (or the step failed): what waited is stored now, in arrival order. */
export function endStep(transcript: Transcript): void {
  const gate = gateOf(transcript)
  gate.stepping = false
  for (const run of gate.waiting.splice(0)) run()
}

/** Runs `write` now, or as soon as the step in flight on `transcript` has been stored. */
export function afterStep(transcript: Transcript, write: () => void): Promise<void> {
  const gate = gateOf(transcript)
  if (!gate.stepping) {
    write()
    return Promise.resolve()
  }
  return new Promise((resolve, reject) => {
    gate.waiting.push(() => {
      try {
        write()
        resolve()
      } catch (err) {
        reject(err)
      }
    })
  })
}
