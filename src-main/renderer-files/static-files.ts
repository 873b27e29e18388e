import fs from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { isMissing } from '../files'

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

export type StaticTarget =
  | { kind: 'file'; file: string; isHtml: boolean }
  | { kind: 'not_found' }
  | { kind: 'bad_path' }

/**
 * Maps a URL path to a file inside `realRoot` (already passed through realpath). Paths without an extension fall back to `index.html` (client-side
 * routes); anything that resolves outside the root — `..`, encoded slashes, symlinks — is refused.
 */
export function resolveStatic(realRoot: string, urlPath: string): StaticTarget {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return { kind: 'bad_path' } // malformed %-escape: not a path we could have produced
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad_path' }
  const candidate = path.resolve(realRoot, `.${decoded.startsWith('/') ? '' : '/'}${decoded}`)
  if (!inside(realRoot, candidate)) return { kind: 'bad_path' }

  const ext = path.extname(candidate)
  const file = existingFile(candidate) ?? existingFile(path.join(candidate, 'index.html'))
  if (file) {
    const real = fs.realpathSync(file)
    if (!inside(realRoot, real)) return { kind: 'bad_path' }
    return { kind: 'file', file: real, isHtml: path.extname(real) === '.html' }
  }
  if (ext !== '') return { kind: 'not_found' }
  const index = existingFile(path.join(realRoot, 'index.html'))
  return index ? { kind: 'file', file: index, isHtml: true } : { kind: 'not_found' }
}

export function sendFile(req: IncomingMessage, res: ServerResponse, file: string, headers: Record<string, string>): void {
  const stat = fs.statSync(file)
  const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
  // Vite puts content-hashed files under assets/: they never change, so the browser may keep them.
  const cache = file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache'
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(stat.size), 'Cache-Control': cache, ...headers })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  const stream = fs.createReadStream(file)
  stream.on('error', (err) => {
    console.error(`[agentry] serving ${file} failed: ${err.message}`)
    res.destroy(err)
  })
  stream.pipe(res)
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep)
}

function existingFile(p: string): string | undefined {
  try {
    return fs.statSync(p).isFile() ? p : undefined
  } catch (err) {
    // Only "no such file" means "try the next candidate"; anything else (EACCES, EIO) is a real problem.
    if (isMissing(err)) return undefined
    throw err
  }
}
