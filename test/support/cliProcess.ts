import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const CHILD = resolve(import.meta.dirname, 'cliChild.ts')

export interface ChildRun {
  code: number | null
  stdout: string
  stderr: string
  /** Peak resident memory of the CLI's process, in MB (undefined when it was killed). */
  peakMB: number | undefined
  seconds: number
  /** Killed after `timeoutMs`. */
  timedOut: boolean
}

/**
 * Runs `react-three-md2 ARGS` from the sources in a child process (through tsx), with its own memory and
 * time measured; killed after `timeoutMs` (a hang shows as `timedOut`), and capped at `maxOldSpaceMB` of heap.
 */
export function runChild(args: string[], { timeoutMs = 60_000, maxOldSpaceMB = 1024 } = {}): Promise<ChildRun> {
  const dir = mkdtempSync(join(tmpdir(), 'md2-rss-'))
  const rssFile = join(dir, 'rss')
  const started = performance.now()
  return new Promise((done) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${maxOldSpaceMB}`, '--import', 'tsx', CHILD, ...args], {
      env: { ...process.env, MD2_CLI_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      let peakMB: number | undefined
      try {
        peakMB = Number(readFileSync(rssFile, 'utf8')) / 1024
      } catch {
        peakMB = undefined
      }
      rmSync(dir, { recursive: true, force: true })
      done({ code, stdout, stderr, peakMB, seconds: (performance.now() - started) / 1000, timedOut })
    })
  })
}
