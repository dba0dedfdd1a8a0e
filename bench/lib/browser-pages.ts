/**
 * The browser benchmark's plumbing (bench/browser.ts, bench/browser-crowds.ts): the page built with vite and served
 * by vite preview, pages opened in playwright, one page's animation timed, and rounds of pages sampled.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Browser, Page } from 'playwright'
import { build, preview } from 'vite'
import type { RendererKind } from '../browser/renderer-kinds'
import { ASSETS, ROOT } from './models'
import { median } from './stats'

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium'

export interface BrowserOptions {
  counts: number[]
  libs: string[]
  rounds: number
  /** Frames timed per page, and a time cap per page. */
  frames: number
  maxMsPerPage: number
  loadRuns: number
  /** Instance counts for the GPU crowd table (none: no table). */
  crowdCounts?: number[]
  /** The per-renderer crowd table (none: no table). */
  renderers?: RendererOptions
}

export interface RendererOptions {
  renderers: RendererKind[]
  /** GPU crowd and floor counts. */
  counts: number[]
  /** The CPU path (<MD2Model> each) at this count. */
  cpuCount: number
  rounds: number
  /** Frames timed per page, and a time cap per page (the large counts reach the cap first). */
  frames: number
  maxMsPerPage: number
  /** From this count up, a shorter cap: a frame there takes seconds. */
  largeFrom: number
  largeMaxMsPerPage: number
  /** Also the crowd with `decode: "compute"` on WebGPU, at the same counts. */
  compute?: boolean
}

interface Served {
  url: string
  close: () => Promise<void>
}

export async function serve(): Promise<Served> {
  const outDir = mkdtempSync(join(tmpdir(), 'react-three-md2-bench-'))
  const root = join(ROOT, 'bench/browser')
  const config = {
    root,
    configFile: false as const,
    logLevel: 'warn' as const,
    publicDir: ASSETS,
    plugins: [
      react(),
      {
        // vite preview gzips every response on the fly (~100 ms for the soldier here, more under
        // load); real servers send stored files. Ask for them uncompressed so load times are the
        // libraries', not the compressor's.
        name: 'bench-no-compression',
        configurePreviewServer(server: {
          middlewares: { use: (fn: (req: { headers: Record<string, unknown> }, res: unknown, next: () => void) => void) => void }
        }) {
          server.middlewares.use((req, _res, next) => {
            req.headers['accept-encoding'] = 'identity'
            next()
          })
        },
      },
    ],
    build: { outDir, emptyOutDir: true, target: 'es2022', reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  }
  await build(config)
  const server = await preview({ ...config, preview: { host: '127.0.0.1', port: 4317, strictPort: false } })
  const url = server.resolvedUrls?.local[0]
  if (!url) throw new Error('vite preview gave no URL')
  return {
    url,
    close: async () => {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
      rmSync(outDir, { recursive: true, force: true })
    },
  }
}

export interface PageBench {
  ready: Promise<void>
  error?: string
  run(frames: number, maxMs: number): Promise<{ cpuMs: number[]; frameMs: number[] }>
  gpu(): Record<string, number>
  drawnBy?: () => string
  load: Promise<Record<string, number>>
}
/** The page's \`window.bench\` (bench/browser/main.tsx), as the functions given to \`page.evaluate\` see it. */
declare const bench: PageBench

/** Console errors and warnings seen on every page of the run, by text (with a count): reported once at the end. */
export const consoleMessages = new Map<string, number>()

export async function openPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; close: () => Promise<void>; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 820, height: 620 } })
  const page = await context.newPage()
  const errors: string[] = []
  const consoleErrors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    const type = message.type()
    if (type !== 'error' && type !== 'warning') return
    const text = message.text()
    if (type === 'error') consoleErrors.push(text)
    const key = `${type}: ${text.slice(0, 300)}`
    consoleMessages.set(key, (consoleMessages.get(key) ?? 0) + 1)
  })
  await page.goto(url)
  return {
    page,
    consoleErrors,
    close: async () => {
      await context.close()
      if (errors.length) console.log(`  page errors (${url.replace(/^.*\?/, '?')}): ${errors.join('; ')}`)
    },
  }
}

/** JS heap + ArrayBuffer backing stores of the page, after a full GC (Chrome DevTools protocol). */
export async function hostBytes(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number }
  await cdp.detach()
  return usage.usedSize + (usage.backingStorageSize ?? 0)
}

export interface AnimateSample {
  frameMs: number
  cpuMs: number
  frames: number
  gpu: Record<string, number>
  host: number
  /** The renderer, backend and adapter that drew the page. */
  drawnBy?: string
  /** Errors the page logged (a shader or pipeline that failed to build: its frames drew nothing). */
  errors?: string[]
}

export interface Timing {
  frames: number
  maxMsPerPage: number
  /** Measure the page's memory too (a full GC and a heap read). */
  host?: boolean
}

export async function animatePage(
  browser: Browser,
  base: string,
  lib: string,
  n: number,
  options: Timing,
  renderer?: RendererKind,
): Promise<AnimateSample> {
  const { page, close, consoleErrors } = await openPage(
    browser,
    `${base}?mode=animate&lib=${lib}&n=${n}${renderer ? `&renderer=${renderer}` : ''}`,
  )
  try {
    await page.waitForFunction(() => typeof bench !== 'undefined' && (bench.error !== undefined || 'run' in bench), undefined, {
      timeout: 120_000,
    })
    const error = await page.evaluate(() => bench.error)
    if (error) throw new Error(error)
    // Warm-up: the JIT, first uploads, caches.
    await page.evaluate((maxMs) => bench.run(10, maxMs), options.maxMsPerPage / 3)
    const timed = await page.evaluate(([frames, maxMs]) => bench.run(frames, maxMs), [options.frames, options.maxMsPerPage] as const)
    const gpu = await page.evaluate(() => bench.gpu())
    const drawnBy = await page.evaluate(() => bench.drawnBy?.())
    const host = options.host === false ? Number.NaN : await hostBytes(page)
    const errors = consoleErrors.length ? [...consoleErrors] : undefined
    return { frameMs: median(timed.frameMs), cpuMs: median(timed.cpuMs), frames: timed.frameMs.length, gpu, host, drawnBy, errors }
  } finally {
    await close()
  }
}

/** N at which `ms` is reached, on the line through two (N, frame ms) points (frame time grows linearly with N). */
export function countAt(ms: number, a: [number, number], b: [number, number]): number {
  const slope = (b[1] - a[1]) / (b[0] - a[0])
  return slope > 0 ? a[0] + (ms - a[1]) / slope : Number.NaN
}

export const MB = 1024 * 1024

/** The page order of a round: reversed every other round, so neither side always runs first (on a warmer machine). */
export const turn = (libs: readonly string[], round: number): readonly string[] => (round % 2 ? [...libs].reverse() : libs)

/**
 * Every page of `libsAt(n, round)` at every N, `rounds` times, one page at a time; then each cell as the medians
 * of its rounds (frames timed summed, the GPU's figures and the renderer from the first).
 */
export async function sampleRounds(
  counts: readonly number[],
  rounds: number,
  libsAt: (n: number, round: number) => readonly string[],
  sample: (lib: string, n: number) => Promise<AnimateSample>,
): Promise<(lib: string, n: number) => AnimateSample> {
  const samples = new Map<string, AnimateSample[]>()
  for (let round = 0; round < rounds; round++) {
    for (const n of counts) {
      for (const lib of libsAt(n, round)) {
        const key = `${lib}:${n}`
        samples.set(key, [...(samples.get(key) ?? []), await sample(lib, n)])
        process.stdout.write('.')
      }
    }
  }
  process.stdout.write('\n')
  return (lib, n) => {
    const list = samples.get(`${lib}:${n}`) ?? []
    return {
      frameMs: median(list.map((s) => s.frameMs)),
      cpuMs: median(list.map((s) => s.cpuMs)),
      frames: list.reduce((total, s) => total + s.frames, 0),
      gpu: list[0]?.gpu ?? {},
      host: median(list.map((s) => s.host)),
      drawnBy: list[0]?.drawnBy,
      errors: list.some((s) => s.errors) ? list.flatMap((s) => s.errors ?? []) : undefined,
    }
  }
}
