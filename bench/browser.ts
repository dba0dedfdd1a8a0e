/**
 * Benchmarks 3 and 4, in Chromium (software WebGL here: ANGLE on SwiftShader): N animated Ogros,
 * this library against three.js's MD2Loader + AnimationMixer morph meshes; the GPU crowd against its
 * drawing floor, on WebGLRenderer and on WebGPURenderer (WebGPU on SwiftShader's Vulkan, and its WebGL2
 * backend); and the soldier's load time, from the first suspend to the first drawn frame. Builds
 * bench/browser/ with vite, serves it with vite preview on 127.0.0.1 (a secure context, for WebGPU)
 * and drives it with playwright, with the Chromium flags the browser tests use.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import { type Browser, type Page, chromium } from 'playwright'
import { build, preview } from 'vite'
import { CHROMIUM_ARGS } from '../test/browser/chromium.mjs'
import type { RendererKind } from './browser/renderer-kinds'
import { ASSETS, ROOT } from './lib/models'
import { type Table, fmt, median, ratio } from './lib/stats'

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

async function serve(): Promise<Served> {
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

interface PageBench {
  ready: Promise<void>
  error?: string
  run(frames: number, maxMs: number): Promise<{ cpuMs: number[]; frameMs: number[] }>
  gpu(): Record<string, number>
  drawnBy?: () => string
  load: Promise<Record<string, number>>
}
declare const bench: PageBench

/** Console errors and warnings seen on every page of the run, by text (with a count): reported once at the end. */
export const consoleMessages = new Map<string, number>()

async function openPage(browser: Browser, url: string): Promise<{ page: Page; close: () => Promise<void>; consoleErrors: string[] }> {
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
async function hostBytes(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number }
  await cdp.detach()
  return usage.usedSize + (usage.backingStorageSize ?? 0)
}

interface AnimateSample {
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

interface Timing {
  frames: number
  maxMsPerPage: number
  /** Measure the page's memory too (a full GC and a heap read). */
  host?: boolean
}

async function animatePage(
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
function countAt(ms: number, a: [number, number], b: [number, number]): number {
  const slope = (b[1] - a[1]) / (b[0] - a[0])
  return slope > 0 ? a[0] + (ms - a[1]) / slope : Number.NaN
}

const MB = 1024 * 1024

/** The page order of a round: reversed every other round, so neither side always runs first (on a warmer machine). */
const turn = (libs: readonly string[], round: number): readonly string[] => (round % 2 ? [...libs].reverse() : libs)

/**
 * Every page of `libsAt(n, round)` at every N, `rounds` times, one page at a time; then each cell as the medians
 * of its rounds (frames timed summed, the GPU's figures and the renderer from the first).
 */
async function sampleRounds(
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

/**
 * Coming from three.js: N Ogros as N `MD2Character`s, the library's against three.js's own (three's code as its
 * webgl_loader_md2 page writes it, each character loaded by `loadParts`, armed and running), pages alternating.
 */
export async function runCharacterBench(options: {
  counts: number[]
  rounds: number
  frames: number
  maxMsPerPage: number
}): Promise<Table> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  const libs = ['md2-character', 'three-character']
  try {
    const cell = await sampleRounds(
      options.counts,
      options.rounds,
      (_, round) => turn(libs, round),
      (lib, n) => animatePage(browser, served.url, lib, n, options),
    )
    const gpuMB = (gpu: Record<string, number>) => Object.values(gpu).reduce((a, b) => a + b, 0) / MB
    const rows = options.counts.flatMap((n) => {
      const md2 = cell('md2-character', n)
      const three = cell('three-character', n)
      return [
        [
          n,
          "library's MD2Character",
          fmt(md2.frameMs, 1),
          fmt(md2.cpuMs, 2),
          fmt(gpuMB(md2.gpu), 1),
          fmt(md2.host / MB, 1),
          ratio(three.frameMs / md2.frameMs, 1),
          md2.frames,
        ],
        [
          n,
          "three.js's MD2Character",
          fmt(three.frameMs, 1),
          fmt(three.cpuMs, 2),
          fmt(gpuMB(three.gpu), 1),
          fmt(three.host / MB, 1),
          '1×',
          three.frames,
        ],
      ]
    })
    return {
      title: "Coming from three.js: N armed, running Ogros as MD2Characters, the library's vs three.js's",
      note:
        `${options.rounds} round(s), pages alternating, ${options.frames} frames a page (≤ ${fmt(options.maxMsPerPage / 1000, 0)} s). ` +
        'frame ms = JS + waiting for the GPU (a 1-pixel readPixels); JS ms = update() of every character and the render call. ' +
        'GPU MB = geometry and morph data handed to WebGL; heap MB = JS heap + array buffers after a full GC.',
      head: ['N', 'class', 'frame ms', 'JS ms', 'GPU MB', 'heap MB', 'speed-up', 'frames timed'],
      rows,
    }
  } finally {
    await browser.close()
    await served.close()
  }
}

/**
 * Culling on WebGPU: N running Ogros of which a tenth is in view (the rest behind the camera), culled by the
 * compute pass into an indirect draw (`md2-cull`) or by the vertex stage (`md2-vertex-cull`: every instance's
 * vertices run, the culled ones' triangles collapse). Pages alternate; the ratio is of medians of one run.
 */
export async function runCullBench(options: { counts: number[]; rounds: number; frames: number; maxMsPerPage: number }): Promise<Table> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  const libs = ['md2-vertex-cull', 'md2-cull']
  try {
    const cell = await sampleRounds(
      options.counts,
      options.rounds,
      (_, round) => turn(libs, round),
      async (lib, n) => {
        const sample = await animatePage(browser, served.url, lib, n, { ...options, host: false }, 'webgpu')
        if (sample.errors) throw new Error(`${lib} at ${n}: ${sample.errors[0]}`)
        return sample
      },
    )
    const rows = options.counts.flatMap((n) => {
      const vertex = cell('md2-vertex-cull', n)
      const compute = cell('md2-cull', n)
      return [
        [n, 'vertex stage', fmt(vertex.frameMs, 1), fmt(vertex.cpuMs, 2), '1×', vertex.frames],
        [
          n,
          'compute pass, indirect draw',
          fmt(compute.frameMs, 1),
          fmt(compute.cpuMs, 2),
          ratio(vertex.frameMs / compute.frameMs, 2),
          compute.frames,
        ],
      ]
    })
    return {
      title: 'Culling on WebGPU: N running Ogros, a tenth in view, culled in the vertex stage or by a compute pass',
      note:
        `${options.rounds} round(s), pages alternating, ${options.frames} frames a page (≤ ${fmt(options.maxMsPerPage / 1000, 0)} s), ` +
        `drawn by ${cell(libs[0]!, options.counts[0]!).drawnBy ?? '?'}. frame ms = JS + waiting for the GPU (queue.onSubmittedWorkDone); ` +
        'JS ms = update() and the render call. speed-up = vertex-stage frame ms / this frame ms.',
      head: ['N', 'culled by', 'frame ms', 'JS ms', 'speed-up', 'frames timed'],
      rows,
    }
  } finally {
    await browser.close()
    await served.close()
  }
}

export async function runBrowserBench(
  options: BrowserOptions,
): Promise<{ animate: Table; memory: Table; load: Table; crowd?: Table; renderers?: Table }> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  try {
    const renderer = await rendererName(browser, served.url)
    // More than two pages: each round starts one further along the list.
    const pick = await sampleRounds(
      options.counts,
      options.rounds,
      (_, round) => options.libs.map((_, k) => options.libs[(k + round) % options.libs.length]!),
      (lib, n) => animatePage(browser, served.url, lib, n, options),
    )
    const has = (lib: string) => options.libs.includes(lib)
    const animateRows = options.counts.map((n) => {
      const md2 = pick('md2', n)
      const three = pick('three', n)
      const row: (string | number)[] = [`${n}`, fmt(md2.frameMs, 1), fmt(md2.cpuMs, 1)]
      if (has('md2-paused')) row.push(fmt(pick('md2-paused', n).frameMs, 1))
      if (has('md2-shared')) row.push(fmt(pick('md2-shared', n).frameMs, 1), fmt(pick('md2-shared', n).cpuMs, 1))
      row.push(fmt(three.frameMs, 1), fmt(three.cpuMs, 1), ratio(three.frameMs / md2.frameMs, 1), `${md2.frames}/${three.frames}`)
      return row
    })
    // Equal frame time: how many Ogros this library animates in the frame time three.js needs for its smallest N.
    const [lo, hi] = [options.counts[0]!, options.counts[options.counts.length - 1]!]
    const reference = pick('three', lo).frameMs
    const within = options.counts.filter((n) => pick('md2', n).frameMs <= reference)
    const measured = within.length ? Math.max(...within) : Number.NaN
    const estimate = countAt(reference, [lo, pick('md2', lo).frameMs], [hi, pick('md2', hi).frameMs])
    const atSameTime = Math.max(Number.isFinite(measured) ? measured : 0, Number.isFinite(estimate) ? estimate : 0) / lo
    const footer = [
      `Same frame time: three.js needs ${fmt(reference, 1)} ms for ${lo} Ogros; ` +
        (Number.isFinite(measured) ? `this library draws ${measured} in ${fmt(pick('md2', measured).frameMs, 1)} ms (measured), ` : '') +
        `about ${fmt(estimate, 0)} by the straight line through its ${lo}- and ${hi}-Ogro times: ${ratio(atSameTime, 0)} as many. ` +
        `Target ≥ 2× → ${atSameTime >= 2 ? 'met' : 'MISSED'}.`,
      ...(has('md2-paused')
        ? [
            `Paused vs playing at N = ${hi}: ${fmt(pick('md2-paused', hi).frameMs, 1)} vs ${fmt(pick('md2', hi).frameMs, 1)} ms: ` +
              'CPU blending and uploads are not what a frame costs here (drawing is), so a GPU-side blend could gain at most that difference.',
          ]
        : []),
      `Renderer: ${renderer}; canvas 800×600, dpr 1, no antialiasing; Ogros on a grid the camera backs away from as N grows.`,
    ]
    const animate: Table = {
      title: 'Animate, browser: N animated Ogros, <MD2Model> vs three.js MD2Loader + AnimationMixer (morph targets)',
      note:
        `Chromium, software WebGL. Median ms per frame over ${options.rounds} page loads per cell (≤ ${options.frames} frames each, ` +
        'libraries alternating). frame = JS (useFrame, mixers, render calls) + GPU (waited for with a 1-pixel readPixels); ' +
        'JS = the JavaScript part alone. three.js gets its best case: one geometry shared by all meshes and one material. ' +
        (has('md2-paused')
          ? 'paused = the same N with playing={false}: no blending, no uploads, the floor a GPU-side blend could reach. '
          : '') +
        (has('md2-shared') ? 'one material = every <MD2Model> given the same material prop (by default each makes its own).' : ''),
      head: [
        'N',
        'md2 frame ms',
        'md2 JS ms',
        ...(has('md2-paused') ? ['md2 paused frame ms'] : []),
        ...(has('md2-shared') ? ['md2 one material: frame ms', 'JS ms'] : []),
        'three frame ms',
        'three JS ms',
        'speed-up',
        'frames timed md2/three',
      ],
      rows: animateRows,
      footer,
    }

    const memoryRows = options.counts.map((n) => {
      const md2 = pick('md2', n)
      const three = pick('three', n)
      const md2Gpu = (md2.gpu.shared ?? 0) + (md2.gpu.perInstance ?? 0)
      const threeGpu = (three.gpu.shared ?? 0) + (three.gpu.perInstance ?? 0) + (three.gpu.morphTexture ?? 0)
      // MD2Character loads (and uploads) its own geometry per character.
      const characterGpu = threeGpu * n
      return [`${n}`, fmt(md2Gpu / MB, 2), fmt(threeGpu / MB, 1), fmt(characterGpu / MB, 0), fmt(md2.host / MB, 1), fmt(three.host / MB, 1)]
    })
    const memory: Table = {
      title: 'Memory, browser: GPU buffers and page memory with N Ogros',
      note:
        'GPU = bytes of every distinct vertex attribute and index buffer uploaded, plus three.js morph textures computed as ' +
        'WebGLMorphtargets builds them (RGBA float, position + normal per vertex per frame); the 256×256 skin (same for both) is left out. ' +
        'Page = V8 heap + ArrayBuffer backing stores after a full GC (DevTools protocol), whole page (React, three.js included).',
      head: ['N', 'md2 GPU MB', 'three GPU MB (shared geometry)', 'MD2Character GPU MB (geometry each)', 'md2 page MB', 'three page MB'],
      rows: memoryRows,
      footer: [
        'MD2Character parses and uploads one geometry per character; the three column measured here shares one geometry ' +
          '(its best case), the MD2Character column is that figure × N.',
      ],
    }

    const crowd = options.crowdCounts?.length ? await runCrowd(browser, served.url, options, pick) : undefined
    // The WebGL rows of the per-renderer table are the crowd table's and the animate table's pages
    // when they were measured the same way (same rounds, frames and cap).
    const same =
      options.renderers &&
      options.renderers.rounds === options.rounds &&
      options.renderers.frames === options.frames &&
      options.renderers.maxMsPerPage === options.maxMsPerPage
    const reuse = (lib: string, n: number): AnimateSample | undefined => {
      if (!same) return undefined
      if (lib === 'md2')
        return options.counts.includes(n) && options.libs.includes('md2') ? { ...pick('md2', n), host: Number.NaN } : undefined
      return crowd?.cell.get(`${lib}:${n}`)
    }
    const renderers = options.renderers ? await runRenderers(browser, served.url, options.renderers, reuse) : undefined
    const load = await runLoad(browser, served.url, options.loadRuns)
    process.stdout.write('\n')
    return { animate, memory, load, crowd: crowd?.table, renderers }
  } finally {
    await browser.close()
    await served.close()
  }
}

type Pick = (lib: string, n: number) => { frameMs: number; cpuMs: number; frames: number; gpu: Record<string, number> }

/** The GPU crowd at N instances beside its drawing floor, the CPU path and three.js (from the table above). */
async function runCrowd(
  browser: Browser,
  base: string,
  options: BrowserOptions,
  pick: Pick,
): Promise<{ table: Table; cell: Map<string, AnimateSample> }> {
  const counts = options.crowdCounts!
  // At 1,000 the CPU path and three.js too.
  const libsAt = (n: number) => (n === 1000 ? ['md2-gpu', 'floor', 'md2', 'three'] : ['md2-gpu', 'floor'])
  const sampled = await sampleRounds(
    counts,
    options.rounds,
    (n, round) => turn(libsAt(n), round),
    (lib, n) => animatePage(browser, base, lib, n, options),
  )
  const cell = new Map<string, AnimateSample>()
  for (const n of counts) for (const lib of libsAt(n)) cell.set(`${lib}:${n}`, sampled(lib, n))
  const cpuN = options.counts[options.counts.length - 1]!
  const cpu = pick('md2', cpuN)
  const three = pick('three', cpuN)
  const rows = counts.map((n) => {
    const gpu = cell.get(`md2-gpu:${n}`)!
    const floor = cell.get(`floor:${n}`)!
    // The CPU path and three.js where measured: here at 1,000, in the table above at its counts.
    const other = (lib: string) => cell.get(`${lib}:${n}`)?.frameMs ?? (options.counts.includes(n) ? pick(lib, n).frameMs : Number.NaN)
    return [
      `${n}`,
      fmt(gpu.frameMs, 1),
      fmt(gpu.cpuMs, 2),
      fmt(floor.frameMs, 1),
      ratio(gpu.frameMs / floor.frameMs, 2),
      Number.isFinite(other('md2')) ? fmt(other('md2'), 1) : '—',
      Number.isFinite(other('three')) ? fmt(other('three'), 0) : '—',
      `${gpu.frames}/${floor.frames}`,
    ]
  })
  const armed = counts.includes(ARMED_COUNT) ? await runArmed(browser, base, options) : undefined
  if (armed) rows.push(...armed.rows)
  const [lo, hi] = [counts[0]!, counts[counts.length - 1]!]
  const line = countAt(cpu.frameMs, [lo, cell.get(`md2-gpu:${lo}`)!.frameMs], [hi, cell.get(`md2-gpu:${hi}`)!.frameMs])
  const measured = counts.filter((n) => cell.get(`md2-gpu:${n}`)!.frameMs <= cpu.frameMs)
  const table: Table = {
    title: 'Crowds, browser: N instanced Ogros on the GPU (one draw call) vs the drawing floor, the CPU path and three.js',
    note:
      `Same page and canvas as above, median of ${options.rounds} page loads per cell. gpu = MD2Crowd (useMD2Crowd), every Ogro running; floor = the same ` +
      'triangles and skin as one plain InstancedMesh of a static frame (nothing animated): what drawing alone costs. JS ms = the ' +
      'JavaScript part of a frame (the crowd update, culling, the render call). CPU path = one <MD2Model> per Ogro; three.js = ' +
      "MD2Loader + AnimationMixer morph meshes sharing one geometry (MD2Character's best case).",
    head: [
      'N',
      'gpu frame ms',
      'gpu JS ms',
      'floor frame ms',
      'gpu / floor',
      'CPU path (<MD2Model>) ms',
      'three.js ms',
      'frames timed gpu/floor',
    ],
    rows,
    footer: [
      ...(cell.has(`md2-gpu:${cpuN}`)
        ? [
            `At ${cpuN}: GPU path ${fmt(cell.get(`md2-gpu:${cpuN}`)!.frameMs, 1)} ms against the CPU path's ${fmt(cpu.frameMs, 1)} ms: ${ratio(cell.get(`md2-gpu:${cpuN}`)!.frameMs / cpu.frameMs, 2)} its frame time.`,
          ]
        : []),
      `CPU path at ${cpuN}: ${fmt(cpu.frameMs, 1)} ms (${cpuN} <MD2Model>); three.js MD2Loader + AnimationMixer at ${cpuN}: ${fmt(three.frameMs, 1)} ms.`,
      `In the CPU path's ${cpuN}-Ogro frame time the GPU path draws ${measured.length ? `${Math.max(...measured)} (measured), ` : ''}about ${fmt(line, 0)} by the line through its ${lo}- and ${hi}-instance times.`,
      ...(armed ? armed.footer : []),
    ],
  }
  return { table, cell }
}

const RENDERER_LABEL: Record<RendererKind, string> = {
  webgl: 'WebGLRenderer',
  webgpu: 'WebGPURenderer (WebGPU)',
  'webgpu-webgl2': 'WebGPURenderer (WebGL2 backend)',
}

/** The per-renderer table alone, in its own browser (`npm run bench -- --only=renderers`). */
export async function runRendererBench(options: RendererOptions): Promise<Table> {
  const served = await serve()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] })
  try {
    const table = await runRenderers(browser, served.url, options, () => undefined)
    process.stdout.write('\n')
    return table
  } finally {
    await browser.close()
    await served.close()
  }
}

/**
 * The GPU crowd per renderer: N running Ogros (MD2Crowd) against that renderer's static InstancedMesh
 * of the same triangles (the drawing floor), and the CPU path (<MD2Model> each) at one count. Pages
 * alternate gpu/floor order by round; `reuse` gives cells already measured in this run (WebGL's, from
 * the crowd and animate tables). A page that logged errors (a pipeline that failed to build draws
 * nothing) is reported as failed, with its first error, not timed.
 */
async function runRenderers(
  browser: Browser,
  base: string,
  options: RendererOptions,
  reuse: (lib: string, n: number) => AnimateSample | undefined,
): Promise<Table> {
  const started = performance.now()
  const samples = new Map<string, AnimateSample[]>()
  const reused = new Set<string>()
  const timing = (n: number): Timing => ({
    frames: options.frames,
    maxMsPerPage: n >= options.largeFrom ? options.largeMaxMsPerPage : options.maxMsPerPage,
    host: false,
  })
  const measure = async (renderer: RendererKind, lib: string, n: number) => {
    const key = `${renderer}:${lib}:${n}`
    if (reused.has(key)) return
    const known = renderer === 'webgl' ? reuse(lib, n) : undefined
    if (known) {
      reused.add(key)
      samples.set(key, [known])
      return
    }
    const sample = await animatePage(browser, base, lib, n, timing(n), renderer)
    samples.set(key, [...(samples.get(key) ?? []), sample])
    process.stdout.write(sample.errors ? 'x' : '.')
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const renderer of options.renderers) {
      for (const n of options.counts) {
        // On the GL renderers also the crowd posed by its shader whatever draws it: `pose: "auto"` poses on the CPU
        // where the renderer draws in software (WebGPU has the compute pass: "auto" is the shader there).
        const libs =
          options.compute && renderer === 'webgpu'
            ? ['md2-gpu', 'floor', 'md2-compute', 'md2-gpu-shadowed', 'md2-compute-shadowed']
            : renderer === 'webgpu'
              ? ['md2-gpu', 'floor']
              : ['md2-gpu', 'floor', 'md2-gpu-shader']
        for (const lib of turn(libs, round)) await measure(renderer, lib, n)
      }
      await measure(renderer, 'md2', options.cpuCount)
    }
  }
  const cell = (renderer: RendererKind, lib: string, n: number) => {
    const list = samples.get(`${renderer}:${lib}:${n}`) ?? []
    const errors = list.flatMap((s) => s.errors ?? [])
    return {
      frameMs: errors.length ? Number.NaN : median(list.map((s) => s.frameMs)),
      cpuMs: errors.length ? Number.NaN : median(list.map((s) => s.cpuMs)),
      frames: list.reduce((total, s) => total + s.frames, 0),
      drawnBy: list.find((s) => s.drawnBy)?.drawnBy,
      error: errors[0],
      failed: list.filter((s) => s.errors).length,
      pages: list.length,
      reused: reused.has(`${renderer}:${lib}:${n}`),
    }
  }
  type Cell = ReturnType<typeof cell>
  const ms = (c: Cell, digits: number) => (c.error ? `failed (${c.failed}/${c.pages} pages)` : fmt(c.frameMs, digits))
  const rows: string[][] = []
  const footer: string[] = []
  const failures = new Map<string, string[]>()
  const noteFailure = (c: Cell, what: string) => {
    if (c.error) failures.set(c.error, [...(failures.get(c.error) ?? []), what])
  }
  for (const renderer of options.renderers) {
    const label = RENDERER_LABEL[renderer]
    for (const n of options.counts) {
      const gpu = cell(renderer, 'md2-gpu', n)
      const floor = cell(renderer, 'floor', n)
      noteFailure(gpu, `${label} gpu ${n}`)
      noteFailure(floor, `${label} floor ${n}`)
      rows.push([
        label,
        `${n} running, GPU crowd${renderer === 'webgpu' ? '' : ' (pose "auto")'}`,
        ms(gpu, 1),
        gpu.error ? '—' : fmt(gpu.cpuMs, 2),
        ms(floor, 1),
        ratio(gpu.frameMs / floor.frameMs, 2),
        `${gpu.frames}/${floor.frames}${gpu.reused ? ' (crowd table)' : ''}`,
      ])
      if (renderer !== 'webgpu') {
        const shader = cell(renderer, 'md2-gpu-shader', n)
        noteFailure(shader, `${label} md2-gpu-shader ${n}`)
        rows.push([
          label,
          `${n} running, GPU crowd posed by its shader (pose "shader")`,
          ms(shader, 1),
          shader.error ? '—' : fmt(shader.cpuMs, 2),
          ms(floor, 1),
          ratio(shader.frameMs / floor.frameMs, 2),
          `${shader.frames}/${floor.frames}`,
        ])
      }
      if (options.compute && renderer === 'webgpu') {
        for (const [lib, what] of [
          ['md2-compute', 'GPU crowd, decode "compute" (blend in a compute pass)'],
          ['md2-gpu-shadowed', 'GPU crowd casting a shadow map'],
          ['md2-compute-shadowed', 'GPU crowd casting a shadow map, decode "compute"'],
        ] as const) {
          const measured = cell(renderer, lib, n)
          noteFailure(measured, `${label} ${lib} ${n}`)
          rows.push([
            label,
            `${n} running, ${what}`,
            ms(measured, 1),
            measured.error ? '—' : fmt(measured.cpuMs, 2),
            ms(floor, 1),
            ratio(measured.frameMs / floor.frameMs, 2),
            `${measured.frames}/${floor.frames}`,
          ])
        }
      }
    }
    const cpu = cell(renderer, 'md2', options.cpuCount)
    noteFailure(cpu, `${label} CPU path ${options.cpuCount}`)
    rows.push([
      label,
      `${options.cpuCount} running, CPU path (<MD2Model> each)`,
      ms(cpu, 1),
      cpu.error ? '—' : fmt(cpu.cpuMs, 2),
      '—',
      '—',
      `${cpu.frames}${cpu.reused ? ' (animate table)' : ''}`,
    ])
    const lo = options.counts[0]!
    const gpuLo = cell(renderer, 'md2-gpu', lo)
    const drawn = options.counts.flatMap((n) => [cell(renderer, 'md2-gpu', n).drawnBy, cell(renderer, 'floor', n).drawnBy]).find(Boolean)
    footer.push(
      `${label}: gpu / floor ${options.counts.map((n) => ratio(cell(renderer, 'md2-gpu', n).frameMs / cell(renderer, 'floor', n).frameMs, 2)).join(' / ')} ` +
        `at ${options.counts.join(' / ')}; ${lo} on the GPU path ${fmt(gpuLo.frameMs, 1)} ms against ${options.cpuCount} on the CPU path ${fmt(cpu.frameMs, 1)} ms ` +
        `(${ratio(gpuLo.frameMs / cpu.frameMs, 2)} its frame time for ${ratio(lo / options.cpuCount, 0)} the Ogros). Drawn by ${drawn ?? 'unknown'}.`,
    )
  }
  if (options.compute && options.renderers.includes('webgpu')) {
    const against = (compute: string, vertex: string) =>
      options.counts.map((n) => `${n}: ${ratio(cell('webgpu', compute, n).frameMs / cell('webgpu', vertex, n).frameMs, 2)}`).join(', ')
    footer.push(
      `decode "compute" against the vertex-shader path (WebGPU), frame time: ${against('md2-compute', 'md2-gpu')}; ` +
        `casting a shadow map (two passes over the crowd): ${against('md2-compute-shadowed', 'md2-gpu-shadowed')}` +
        ' (below 1× = the compute pass wins); 32 bytes of storage per MD2 vertex per instance of the limit.',
    )
  }
  if (options.renderers.includes('webgl') && options.renderers.length > 1) {
    const hi = options.counts[options.counts.length - 1]!
    const webgl = cell('webgl', 'floor', hi).frameMs
    footer.push(
      `Floor at ${hi} against WebGLRenderer's (${fmt(webgl, 0)} ms): ` +
        options.renderers
          .filter((renderer) => renderer !== 'webgl')
          .map((renderer) => `${RENDERER_LABEL[renderer]} ${ratio(cell(renderer, 'floor', hi).frameMs / webgl, 2)}`)
          .join(', ') +
        " (across renderers the drawing itself differs; the ratio to each renderer's own floor is the comparison).",
    )
  }
  for (const [error, where] of failures)
    footer.push(
      `FAILED (${where.join('; ')}): the page logged "${error.replace(/\s+/g, ' ').slice(0, 240)}"; its frames drew nothing and are not reported.`,
    )
  footer.push(`This table took ${fmt((performance.now() - started) / 60000, 1)} min.`)
  const large = options.counts.filter((n) => n >= options.largeFrom)
  return {
    title: "Crowds per renderer, browser: N running Ogros on the GPU path vs that renderer's drawing floor, and the CPU path",
    note:
      "Chromium with the browser tests' flags: WebGL on ANGLE/SwiftShader, WebGPU on SwiftShader's Vulkan (a real adapter, checked). " +
      `Median of ${options.rounds} page loads per cell (gpu/floor order alternating by round), ≤ ${options.frames} frames per page and ` +
      `≤ ${fmt(options.maxMsPerPage / 1000, 0)} s of timed frames` +
      (large.length
        ? ` (≤ ${fmt(options.largeMaxMsPerPage / 1000, 0)} s at ${large.join(' and ')}: a few frames, see the last column)`
        : '') +
      '. gpu = MD2Crowd (useMD2Crowd), every Ogro running; floor = the same triangles and skin as one InstancedMesh of a static frame ' +
      '(nothing animated), on the same renderer. frame ms = JS + waiting for the GPU (WebGL: a 1-pixel readPixels; WebGPU: ' +
      'queue.onSubmittedWorkDone()). The same page, materials and code on every renderer; only the Canvas gl changes.' +
      (reused.size
        ? ' WebGLRenderer rows marked so: the pages of the crowd and animate tables above, from this run (≤ ' +
          `${fmt(options.maxMsPerPage / 1000, 0)} s of frames per page at every count).`
        : ''),
    head: ['renderer', 'N', 'frame ms', 'JS ms', 'floor frame ms', 'gpu / floor', 'frames timed'],
    rows,
    footer,
  }
}

/** Armed crowds are measured at this count, when the crowd table has it. */
const ARMED_COUNT = 1000

/** The armed pairs: each armed page against the same bodies unarmed, in the same run. */
const ARMED_PAIRS = [
  { armed: 'md2-gpu-armed', unarmed: 'md2-gpu', label: 'Ogros running, armed (weapon.md2 synced) vs unarmed' },
  { armed: 'soldier-gpu-armed', unarmed: 'soldier-gpu', label: 'UFO:AI soldiers walking, armed (a rifle on tag_rweapon) vs unarmed' },
] as const

/**
 * Armed GPU crowds: N bodies and a weapon drawn by a follower crowd (`MD2Crowd.follow`, one more draw),
 * against the same N bodies alone, pages alternating. Rows for the crowd table: the armed page in the
 * gpu columns, the unarmed one in the floor columns, their ratio in between.
 */
async function runArmed(browser: Browser, base: string, options: BrowserOptions): Promise<{ rows: string[][]; footer: string[] }> {
  const n = ARMED_COUNT
  const sampled = await sampleRounds(
    [n],
    options.rounds,
    (_, round) => ARMED_PAIRS.flatMap((pair) => turn([pair.armed, pair.unarmed], round)),
    (lib) => animatePage(browser, base, lib, n, options),
  )
  const cell = (lib: string) => sampled(lib, n)
  const rows: string[][] = []
  const footer: string[] = []
  for (const pair of ARMED_PAIRS) {
    const armed = cell(pair.armed)
    const unarmed = cell(pair.unarmed)
    const times = armed.frameMs / unarmed.frameMs
    rows.push([
      `${n} ${pair.label}`,
      fmt(armed.frameMs, 1),
      fmt(armed.cpuMs, 2),
      fmt(unarmed.frameMs, 1),
      ratio(times, 2),
      '—',
      '—',
      `${armed.frames}/${unarmed.frames}`,
    ])
    footer.push(
      `${n} ${pair.label}: ${fmt(armed.frameMs, 1)} vs ${fmt(unarmed.frameMs, 1)} ms per frame (JS ${fmt(armed.cpuMs, 2)} vs ${fmt(unarmed.cpuMs, 2)} ms), ` +
        `${ratio(times, 2)} with one more draw call. Target ≤ 1.3× → ${times <= 1.3 ? 'met' : 'MISSED'}. (In these rows the floor columns are the unarmed crowd.)`,
    )
  }
  return { rows, footer }
}

async function rendererName(browser: Browser, base: string): Promise<string> {
  const { page, close } = await openPage(browser, `${base}?mode=animate&lib=md2&n=0`)
  try {
    return await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2')!
      const info = gl.getExtension('WEBGL_debug_renderer_info')
      return info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER))
    })
  } finally {
    await close()
  }
}

async function loadOnce(browser: Browser, base: string, lib: string, skin: boolean): Promise<Record<string, number>> {
  const { page, close } = await openPage(browser, `${base}?mode=load&lib=${lib}&skin=${skin ? 1 : 0}`)
  try {
    await page.waitForFunction(() => typeof bench !== 'undefined' && bench.load !== undefined, undefined, { timeout: 60_000 })
    const times = await page.evaluate(() =>
      Promise.race([bench.load, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(bench.error ?? 'timeout')), 60_000))]),
    )
    return { ...times, host: await hostBytes(page) }
  } finally {
    await close()
  }
}

async function loadParts(browser: Browser, base: string): Promise<Record<string, number>> {
  const { page, close } = await openPage(browser, `${base}?mode=parts`)
  try {
    await page.waitForFunction(() => typeof bench !== 'undefined' && bench.load !== undefined, undefined, { timeout: 60_000 })
    return await page.evaluate(() => bench.load)
  } finally {
    await close()
  }
}

async function runLoad(browser: Browser, base: string, runs: number): Promise<Table> {
  const cells: Record<string, Record<string, number[]>> = {}
  const parts: Record<string, number[]> = {}
  const variants = [
    ['md2', false],
    ['three', false],
    ['md2', true],
    ['three', true],
  ] as const
  for (let run = 0; run < runs; run++) {
    for (const [lib, skin] of run % 2 === 0 ? variants : [...variants].reverse()) {
      const key = `${lib}:${skin}`
      let times: Record<string, number>
      try {
        times = await loadOnce(browser, base, lib, skin)
      } catch (error) {
        console.log(`  load ${key}: ${(error as Error).message}`)
        times = { total: Number.NaN }
      }
      const cell = (cells[key] ??= {})
      for (const [name, value] of Object.entries(times)) (cell[name] ??= []).push(value)
      process.stdout.write('.')
    }
    for (const [name, value] of Object.entries(await loadParts(browser, base))) (parts[name] ??= []).push(value)
  }
  const part = (name: string) => fmt(median(parts[name] ?? []), 0)
  const get = (lib: string, skin: boolean, name: string) => median(cells[`${lib}:${skin}`]?.[name] ?? [])
  const rows = [false, true].map((skin) => {
    const md2 = get('md2', skin, 'total')
    const three = get('three', skin, 'total')
    return [
      skin ? 'soldier + its 2048×2048 PNG skin' : 'soldier, no skin',
      fmt(md2, 0),
      fmt(get('md2', skin, 'loaded'), 0),
      fmt(three, 0),
      fmt(get('three', skin, 'loaded'), 0),
      ratio(three / md2, 1),
      fmt(get('md2', skin, 'host') / MB, 1),
      fmt(get('three', skin, 'host') / MB, 1),
    ]
  })
  return {
    title: 'Load, browser: the UFO:AI soldier (3.5 MB, 1,007 frames) from the first suspend to the first drawn frame',
    note:
      `Median of ${runs} fresh pages each. md2: <Suspense><MD2Model url … animationTable animation="walk0"/></Suspense> mounted on ` +
      "a running canvas; the clock stops when the mesh's first draw has finished on the GPU. loaded = fetched and parsed " +
      '(useMD2 resolved; for three.js, MD2Loader.loadAsync). three.js: the geometry it returns on a mesh with its morph targets.',
    head: ['model', 'md2 total ms', 'md2 loaded ms', 'three total ms', 'three loaded ms', 'speed-up', 'md2 page MB', 'three page MB'],
    rows,
    footer: [
      `Where the time goes (another page, same file, medians): fetch of the 3.5 MB file ${part('fetch')} ms ` +
        `(three's FileLoader, used by both loaders: ${part('fileLoader')} ms); parseMD2 ${part('parseMD2')} ms; ` +
        `render data (vertex layout + all-frames bounds, once per model) ${part('renderData')} ms; three.js MD2Loader.parse ${part('threeParse')} ms. ` +
        'The rest is React, shader compilation and the first upload (and decoding and uploading the skin).',
    ],
  }
}
