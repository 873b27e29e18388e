/** Markdown pieces the browser tests stream through the script model. */

/** A ```diff block as a model writes one: a one-line change in context. */
export const DIFF_BLOCK = [
  '```diff',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,3 +1,3 @@',
  ' import { start } from "./server"',
  '-start(3000)',
  '+start(Number(process.env.PORT ?? 3000))',
  ' console.log("up")',
  '```',
].join('\n')
