// `npm run screenshots`: refreshes the README's screenshots in docs/screenshots/ by running the browser tests with
// publishing on. (`npm test` only writes test artifacts to the ignored e2e/artifacts/.)
import { spawnSync } from 'node:child_process'

const env = { ...process.env, AGENTRY_PUBLISH_SCREENSHOTS: '1' }
const run = (args) => {
  const r = spawnSync(args[0], args.slice(1), { stdio: 'inherit', env, shell: process.platform === 'win32' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
run(['npm', 'run', 'build', '--silent'])
run(['npx', 'vitest', 'run', '-c', 'vitest.e2e.config.ts', ...process.argv.slice(2)])
console.log('Screenshots refreshed in docs/screenshots/ — review them with git diff before committing.')
