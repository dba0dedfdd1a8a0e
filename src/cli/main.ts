/// <reference types="node" />
// The only file that touches Node: the build's declaration pass has no global node types, so name them here.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve, isAbsolute } from 'node:path'
import { MD2Error } from '../core/MD2Error.js'
import { runCli, type CliIO } from './run.js'

export { runCli, USAGE, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIO } from './run.js'

/** The files of this machine, for the command line (tests use the same one on temporary folders). */
export const nodeIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => {
    const buffer = readFileSync(path)
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  },
  writeFile: (path, data) => writeFileSync(path, data),
  exists: (path) => existsSync(path),
  writeInside: (dir, path, data) => {
    // Links are followed before anything is created: a link inside DIR that points elsewhere is refused.
    mkdirSync(dir, { recursive: true })
    const root = realpathSync(dir)
    const named = resolve(path)
    let existing = dirname(named)
    while (!existsSync(existing)) existing = dirname(existing)
    const outside = (real: string) => {
      const inside = relative(root, real)
      return inside.startsWith('..') || isAbsolute(inside)
    }
    if (outside(realpathSync(existing)) || (existsSync(named) && outside(realpathSync(named))))
      throw new MD2Error('UNSAFE_PATH', `${path} resolves outside ${root}; not written`, { section: 'archive' })
    mkdirSync(dirname(named), { recursive: true })
    writeFileSync(named, data)
  },
}

/**
 * The `react-three-md2` command: `argv` is `process.argv` (node, script, then the arguments).
 * Sets `process.exitCode` rather than exiting, so pending output is flushed; also resolves to it.
 */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const code = await runCli(argv.slice(2), nodeIO)
  process.exitCode = code
  return code
}
