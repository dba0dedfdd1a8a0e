import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'
import { nodeIO, runCli, type CliIO } from '../../src/cli/main'

/** The CLI in-process on the real file system, its output captured; never a stack trace. */
export async function runOnDisk(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = { ...nodeIO, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) }
  const code = await runCli(argv, io)
  expect(stdout + stderr).not.toMatch(/\n\s+at /)
  return { code, stdout, stderr }
}

/** Where a read lands, links followed by node:fs (the path as given when nothing is there to read). */
function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/**
 * The CLI in-process on the real file system, its output captured and the real path of every file it reads
 * recorded (`extra` replaces parts of its I/O: a write that fails, say).
 */
export async function runRecorded(
  argv: string[],
  extra: Partial<CliIO> = {},
): Promise<{ code: number; stdout: string; stderr: string; read: string[] }> {
  let stdout = ''
  let stderr = ''
  const read: string[] = []
  const io: CliIO = {
    ...nodeIO,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    readFile: (path, limits) => {
      read.push(realPath(path))
      return nodeIO.readFile(path, limits)
    },
    ...extra,
  }
  const code = await runCli(argv, io)
  return { code, stdout, stderr, read }
}

/** Every file under `root` (a link as the file it names) with its SHA-256: what a run must leave as it was. */
export function fileHashes(root: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else out.set(path, createHash('sha256').update(readFileSync(path)).digest('hex'))
    }
  }
  walk(root)
  return out
}
