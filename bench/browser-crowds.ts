/**
 * The browser benchmark's crowd tables (run by bench/browser.ts): the GPU crowd against its drawing floor, the CPU
 * path and three.js; armed crowds; and the same crowd on each renderer (WebGL, WebGPU, WebGPU's WebGL2 backend).
 */
import { type Browser, chromium } from 'playwright'
import { CHROMIUM_ARGS } from '../test/browser/chromium.mjs'
import type { RendererKind } from './browser/renderer-kinds'
import {
  type AnimateSample,
  type BrowserOptions,
  CHROMIUM,
  type RendererOptions,
  type Timing,
  animatePage,
  countAt,
  sampleRounds,
  serve,
  turn,
} from './lib/browser-pages'
import { type Table, fmt, median, ratio } from './lib/stats'

export type Pick = (lib: string, n: number) => { frameMs: number; cpuMs: number; frames: number; gpu: Record<string, number> }

/** The GPU crowd at N instances beside its drawing floor, the CPU path and three.js (from the table above). */
export async function runCrowd(
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
export async function runRenderers(
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
