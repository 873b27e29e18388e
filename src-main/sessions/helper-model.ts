import type { ModelRef } from '../../src-shared'
import { parseModelRef } from '../models'
import type { RunLevel } from '../runtime'

/**
 * The model of the helper agents (title, summary, compaction): config's `smallModel` when set, from the run's
 * settings snapshot; undefined = the session's model. A helper agent that names its own `model` keeps it.
 */
export function helperModel(level: RunLevel): ModelRef | undefined {
  const small = level.settings.config.config.smallModel
  return small ? parseModelRef(small) : undefined
}
