// Bundles the CLI/daemon entry into out/cli so `agentry` starts fast (one file to parse, providers loaded lazily).
import { rmSync } from 'node:fs'
import { build } from 'esbuild'
import { cliBuildOptions } from './cli-build-options.mjs'

rmSync('out/cli', { recursive: true, force: true })

await build(cliBuildOptions)
