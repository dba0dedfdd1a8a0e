import { Worker } from 'node:worker_threads'

/**
 * The fuzz tests' seed: `fallback` unless `FUZZ_SEED` gives another (`FUZZ_SEED=random`: a new one each run;
 * the failure message names the one used). Fixed by default, so CI runs the cases that passed here.
 */
export function fuzzSeed(fallback: number): number {
  const value = process.env.FUZZ_SEED
  if (value === undefined || value === '') return fallback
  if (value === 'random') return (Date.now() ^ (Math.random() * 2 ** 31)) | 0
  const seed = Number(value)
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer or "random", got ${value}`)
  return seed | 0
}

/** `FUZZ_RUNS=<factor>` scales every property's number of runs (e.g. 10 for a long session). */
export const FUZZ_RUN_FACTOR = Math.max(1, Number(process.env.FUZZ_RUNS ?? 1) || 1)

const LABEL_BYTES = 4096

// Plain JavaScript for the watchdog's thread: it sees the case's start and label through shared memory.
const WATCHDOG = `
const { workerData } = require('node:worker_threads')
const { writeSync } = require('node:fs')
const clock = new Float64Array(workerData.clock)
const label = new Uint8Array(workerData.label)
setInterval(() => {
  const started = clock[0]
  if (started > 0 && Date.now() - started > workerData.limitMs) {
    const end = label.indexOf(0)
    const text = new TextDecoder().decode(label.slice(0, end < 0 ? label.length : end))
    writeSync(2, '\\nfuzz watchdog: a case ran over ' + workerData.limitMs + ' ms, its thread never yielding (a hang): ' + text + '\\n')
    process.kill(process.pid, 'SIGKILL')
  }
}, 200)
`

/**
 * Ends the process, naming the case, when one case of a fuzz test runs longer than `limitMs`. A synchronous
 * hang (a loop in library code) blocks the test's own thread, so neither vitest's timeout nor fast-check's
 * time limit can stop it; this watchdog runs on a thread of its own.
 */
export class FuzzWatchdog {
  private readonly clock = new Float64Array(new SharedArrayBuffer(8))
  private readonly label = new Uint8Array(new SharedArrayBuffer(LABEL_BYTES))
  private readonly worker: Worker

  constructor(limitMs: number) {
    this.worker = new Worker(WATCHDOG, {
      eval: true,
      // Plain CommonJS: none of this process's flags (a loader, `--input-type=module`) apply to it.
      execArgv: [],
      workerData: { clock: this.clock.buffer, label: this.label.buffer, limitMs },
    })
    this.worker.unref()
  }

  /** A case starts: `label` says how to replay it (the seed, the run, the input). */
  start(label: string): void {
    this.label.fill(0)
    new TextEncoder().encodeInto(label.slice(0, LABEL_BYTES / 4), this.label)
    this.clock[0] = Date.now()
  }

  finish(): void {
    this.clock[0] = 0
  }

  async close(): Promise<void> {
    this.finish()
    await this.worker.terminate()
  }
}

/** For a watchdog's label: JSON with `undefined` and non-finite numbers kept legible. */
export function describeCase(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item === undefined ? '<undefined>' : typeof item === 'number' && !Number.isFinite(item) ? String(item) : item,
  )
}
