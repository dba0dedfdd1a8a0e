/// <reference types="node" />
// The only file that touches Node: the build's declaration pass has no global node types, so name them here.
import { readFileSync, writeFileSync } from 'node:fs'
import { runCli, type CliIO } from './run.js'

export { runCli, USAGE, EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIO } from './run.js'

const nodeIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => {
    const buffer = readFileSync(path)
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  },
  writeFile: (path, data) => writeFileSync(path, data),
}

/**
 * The `react-three-md2` command: `argv` is `process.argv` (node, script, then the arguments).
 * Sets `process.exitCode` rather than exiting, so pending output is flushed; also returns it.
 */
export function main(argv: readonly string[] = process.argv): number {
  const code = runCli(argv.slice(2), nodeIO)
  process.exitCode = code
  return code
}
