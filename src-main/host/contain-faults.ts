import { HostError, type HostApi, type HostCalls } from '../../src-shared'
import { AgentFileError } from '../agents'
import { ApprovalError } from '../approvals'
import { RunnerError } from '../sessions'
import { UndoError } from '../undo'
import { StoreError } from '../store'
import { TrustError } from '../trust'
import type { HostLog } from './host-log'

type AnyCall = (input: unknown) => Promise<unknown>

/** The layers' expected failures: each carries the code and the message the caller is answered with, unchanged. */
const EXPECTED = [RunnerError, ApprovalError, AgentFileError, TrustError, UndoError]

/**
 * Every bridge call behind a fence: an expected failure is a `HostError` or one of the layers' own (`EXPECTED`) and
 * is answered with its code and message; a row that went
 * away between a call's check and its write (a concurrent delete) is `not_found`; anything else is a fault of this
 * call alone — logged with an id, answered `internal` with that id, and the host goes on serving everyone else.
 */
export function containCallFaults(api: HostApi, log: HostLog): HostApi {
  const calls: Record<string, AnyCall> = {}
  for (const [name, method] of Object.entries(api.calls) as [string, AnyCall][]) {
    calls[name] = async (input) => {
      try {
        return await method(input)
      } catch (err) {
        throw toHostError(name, err, log)
      }
    }
  }
  return {
    calls: calls as unknown as HostCalls,
    subscribe(input, onMessage) {
      try {
        return api.subscribe(input, onMessage)
      } catch (err) {
        throw toHostError('subscribe', err, log)
      }
    },
  }
}

function toHostError(name: string, err: unknown, log: HostLog): HostError {
  if (HostError.isInstance(err)) return err
  for (const Expected of EXPECTED) if (err instanceof Expected) return new HostError(err.code, err.message)
  if (StoreError.isInstance(err) && err.code === 'not_found') {
    return new HostError('not_found', `${err.message.replace(/^\w+: /, '')}. It may have been deleted meanwhile; reload and try again.`)
  }
  const id = log.fault(`bridge call ${name}`, err)
  return new HostError('internal', `"${name}" failed because of an internal error in the host (${id}); nothing else was affected. The details are in ${log.file}.`)
}
