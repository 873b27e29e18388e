import type { CommandsListing } from '../../src-shared'
import type { CommandSet } from './discover'

/** What `commands.list` shows: every command without its template, the files that failed, what trust holds back. */
export function listCommands(set: CommandSet): CommandsListing {
  return {
    commands: set.commands.map(({ template: _template, ...entry }) => entry),
    errors: set.errors,
    untrusted: set.untrusted,
  }
}
