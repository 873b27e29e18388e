import fs from 'node:fs'

/**
 * The package's version, from its package.json: two folders up both from the sources (src-main/cli) and from the
 * bundle (out/cli), so tests and the built command read the same file, and a release cannot print a stale constant.
 */
export function agentryVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown }
  if (typeof pkg.version !== 'string') throw new Error('package.json has no "version" string; reinstall Agentry')
  return pkg.version
}
