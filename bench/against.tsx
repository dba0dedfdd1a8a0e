/**
 * The CPU rows against another revision, in one process: this checkout's `src` and the revision's,
 * checked out into a temporary git worktree whose `node_modules` is this checkout's (so both draw with
 * the same React, three.js and test renderer), each row's scenes alternating between the two.
 *
 *   npm run bench -- --only=cpu,control,bounds --against=<revision> [--rounds=N]
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createElement, useEffect, type ReactElement } from 'react'
import type { MD2AnimationController } from '../src/core/animation/MD2AnimationController'
import type { MD2ModelData } from '../src/core/format/types'
import type { MD2Pose } from '../src/core/animation/pose'
import { interleaveScenes, type Renderer } from './lib/compare'
import { OGRO, ROOT, SOLDIER, SOLDIER_ANM, readArrayBuffer } from './lib/models'
import { CLOCK, type Table, fmt, median, now, ratio } from './lib/stats'

export interface AgainstOptions {
  rounds: number
  frames: number
  /** Which rows: `cpu` (Animate, CPU and the bare kernel), `control` (crossfading, Quake II light), `bounds`. */
  sections: ReadonlySet<string>
}

/** What the rows use of one source tree, imported from its own `src`. */
interface Tree {
  MD2Model: typeof import('../src/react/MD2Model').MD2Model
  useMD2Animation: typeof import('../src/react/useMD2Animation').useMD2Animation
  KeyframeClock: typeof import('../src/core/animation/KeyframeClock').KeyframeClock
  getMD2RenderData: typeof import('../src/three/mesh/MD2Geometry').getMD2RenderData
  /** The body kernel: positions and normals of a blend, whatever its signature in that tree. */
  blend: (
    model: MD2ModelData,
    pose: Readonly<MD2Pose>,
    target: { xyzIndex: Uint16Array | Uint32Array; positions: Float32Array; normals: Float32Array },
  ) => void
  ogro: MD2ModelData
  soldier: MD2ModelData
  /** What lights a model the Quake II way, and what gives it pose bounds, in that tree: a child, or (before it) a prop. */
  quake2: Feature
  poseBounds: Feature
}

/** A feature of `<MD2Model>` as a tree offers it: a child element, or props. */
interface Feature {
  child: ReactElement | null
  props: Record<string, unknown>
}

async function loadTree(root: string): Promise<Tree> {
  const load = (path: string) => import(pathToFileURL(join(root, 'src', path)).href)
  const [{ MD2Model }, { useMD2Animation }, { KeyframeClock }, { getMD2RenderData }, kernels, { parseMD2 }, { parseAnimationTable }] =
    await Promise.all([
      load('react/MD2Model.tsx'),
      load('react/useMD2Animation.ts'),
      load('core/animation/KeyframeClock.ts'),
      load('three/mesh/MD2Geometry.ts'),
      load('core/animation/blendVertices.ts'),
      load('core/format/parseMD2.ts'),
      load('core/format/animationTable.ts'),
    ])
  // Positional arguments before the kernels took a blend and a target.
  const blend: Tree['blend'] =
    'blendVerticesYUpBy' in kernels
      ? (model, pose, target) =>
          kernels.blendVerticesYUpBy(model, pose.from, pose.to, pose, target.xyzIndex, target.positions, target.normals)
      : kernels.blendVerticesYUp
  const animations = parseAnimationTable(readFileSync(SOLDIER_ANM, 'utf8'))
  const feature = async (file: string, component: string, props: Record<string, unknown>): Promise<Feature> => {
    const path = join(root, 'src/react', file)
    return existsSync(path)
      ? { child: createElement((await import(pathToFileURL(path).href))[component]), props: {} }
      : { child: null, props }
  }
  return {
    quake2: await feature('MD2Quake2Lighting.tsx', 'MD2Quake2Lighting', { lighting: 'quake2' }),
    poseBounds: await feature('MD2PoseBounds.tsx', 'MD2PoseBounds', { bounds: 'pose' }),
    MD2Model,
    useMD2Animation,
    KeyframeClock,
    getMD2RenderData,
    blend,
    ogro: parseMD2(readArrayBuffer(OGRO), { name: 'ogro' }),
    soldier: parseMD2(readArrayBuffer(SOLDIER), { name: 'soldier', animations }),
  }
}

/** A scene for the test renderer, and what to do once it is mounted. */
interface Scene {
  element: ReactElement
  prepare?: (renderer: Renderer) => void
}

interface Row {
  label: string
  section: string
  scene: (tree: Tree) => Scene
}

const many = (n: number, one: (i: number) => ReactElement) => <>{Array.from({ length: n }, (_, i) => one(i))}</>

function animate(model: 'ogro' | 'soldier', animation: string, n: number): Row {
  return {
    label: `Animate, CPU: ${model === 'ogro' ? 'Ogro' : 'soldier'} × ${n}`,
    section: 'cpu',
    scene: ({ MD2Model, ...tree }) => ({ element: many(n, (i) => <MD2Model key={i} model={tree[model]} animation={animation} />) }),
  }
}

/** 300 Ogros mid-crossfade from stand into run (as the animation control bench). */
function crossfading(tree: Tree): Scene {
  const { MD2Model, useMD2Animation, ogro } = tree
  const controllers: MD2AnimationController[] = []
  function Crossfading({ index }: { index: number }) {
    const controller = useMD2Animation(ogro, { animation: 'stand' })
    useEffect(() => {
      controllers[index] = controller
    })
    return <MD2Model model={ogro} controller={controller} />
  }
  return {
    element: many(300, (i) => <Crossfading key={i} index={i} />),
    prepare: () => controllers.forEach((controller) => controller.play('run', { crossfade: 3600 })),
  }
}

function ogros(props: (i: number) => Record<string, unknown>, with_?: 'quake2' | 'poseBounds') {
  return (tree: Tree): Scene => {
    const { MD2Model, ogro } = tree
    const extra = with_ ? tree[with_] : undefined
    return {
      element: many(300, (i) => (
        <MD2Model key={i} model={ogro} animation="run" rotation-y={i * 0.1} {...props(i)} {...extra?.props}>
          {extra?.child}
        </MD2Model>
      )),
    }
  }
}

const ROWS: Row[] = [
  animate('ogro', 'run', 300),
  animate('ogro', 'run', 1000),
  animate('soldier', 'walk0', 300),
  animate('soldier', 'walk0', 1000),
  { label: 'animation control: 300 crossfading controllers', section: 'control', scene: crossfading },
  { label: 'Quake II lighting: 300 Ogros', section: 'control', scene: ogros(() => ({}), 'quake2') },
  {
    label: 'pose bounds: 300 Ogros, bounds="frames"',
    section: 'bounds',
    scene: ogros((i) => ({ speed: 0.9 + (i % 7) * 0.03 })),
  },
  {
    label: 'pose bounds: 300 Ogros, <MD2PoseBounds>',
    section: 'bounds',
    scene: ogros((i) => ({ speed: 0.9 + (i % 7) * 0.03 }), 'poseBounds'),
  },
]

/**
 * Checks `revision` out into a temporary worktree sharing this checkout's node_modules; returns its root
 * and how to remove it. It lives in bench/results/ (ignored by git and the linters) so that tsx compiles
 * it with this checkout's tsconfig (JSX and all), which it applies only to files under the folders it includes.
 */
function checkout(revision: string): { root: string; remove: () => void } {
  const root = join(ROOT, 'bench/results', `against-${revision.replace(/[^\w.-]/g, '_')}.tmp`)
  const remove = () => {
    if (existsSync(root)) execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', root])
    rmSync(root, { recursive: true, force: true })
    execFileSync('git', ['-C', ROOT, 'worktree', 'prune'])
  }
  remove() // what an interrupted run left
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', '--quiet', root, revision], { stdio: ['ignore', 'ignore', 'inherit'] })
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir')
  return { root, remove }
}

/** The bare kernel for 300 Ogros (the floor of Animate, CPU), the two trees' frames interleaved as the scenes' are. */
function kernelSamples(trees: Record<'base' | 'this', Tree>, options: AgainstOptions): Record<'base' | 'this', number[]> {
  const stepOf = (tree: Tree) => {
    const { layout } = tree.getMD2RenderData(tree.ogro)
    const targets = Array.from({ length: 300 }, () => ({
      xyzIndex: layout.xyzIndex,
      positions: new Float32Array(layout.vertexCount * 3),
      normals: new Float32Array(layout.vertexCount * 3),
    }))
    const clock = new tree.KeyframeClock(tree.ogro.header.numFrames)
    clock.play(
      tree.ogro.animations.find((animation) => animation.name === 'run')!,
      { loop: true },
    )
    return () => {
      clock.advance(1 / 60)
      for (let i = 0; i < targets.length; i++) tree.blend(tree.ogro, clock.pose, targets[i]!)
    }
  }
  const steps = { this: stepOf(trees.this), base: stepOf(trees.base) }
  const samples = { base: [] as number[], this: [] as number[] }
  const kinds = ['this', 'base'] as const
  for (let round = 0; round < options.rounds; round++) {
    const times = { base: [] as number[], this: [] as number[] }
    for (let f = 0; f < 30 + options.frames; f++) {
      for (let k = 0; k < 2; k++) {
        const kind = kinds[(k + f + round) % 2]!
        const start = now()
        steps[kind]()
        if (f >= 30) times[kind].push(now() - start)
      }
    }
    samples.base.push(median(times.base))
    samples.this.push(median(times.this))
  }
  return samples
}

export async function runAgainstBench(revision: string, options: AgainstOptions): Promise<Table> {
  const worktree = checkout(revision)
  try {
    const trees = { this: await loadTree(ROOT), base: await loadTree(worktree.root) }
    const rows: (string | number)[][] = []
    const add = (label: string, samples: Record<'base' | 'this', number[]>) => {
      const paired = samples.this.map((ms, i) => ms / samples.base[i]!).sort((a, b) => a - b)
      const [base, mine] = [median(samples.base), median(samples.this)]
      const range = `${fmt(paired[0]!, 2)}–${fmt(paired.at(-1)!, 2)}`
      rows.push([label, fmt(base, 3), fmt(mine, 3), ratio(mine / base, 3), ratio(median(paired), 3), range])
      console.log(
        `  ${label}: ${fmt(base, 3)} → ${fmt(mine, 3)} ms (${ratio(mine / base, 3)}; per round ${ratio(median(paired), 3)}, ${range})`,
      )
      return { base, mine }
    }
    const footer: string[] = []
    const bounds: Record<string, { base: number; mine: number }> = {}
    for (const row of ROWS) {
      if (!options.sections.has(row.section)) continue
      const scenes = { this: row.scene(trees.this), base: row.scene(trees.base) }
      const samples = await interleaveScenes(
        ['this', 'base'] as const,
        (kind) => scenes[kind].element,
        options,
        (kind, renderer) => scenes[kind].prepare?.(renderer),
      )
      bounds[row.label] = add(row.label, samples)
    }
    if (options.sections.has('cpu')) add('kernel alone: 300 Ogro blends (positions, normals)', kernelSamples(trees, options))
    const frames = bounds['pose bounds: 300 Ogros, bounds="frames"']
    const pose = bounds['pose bounds: 300 Ogros, <MD2PoseBounds>']
    if (frames && pose) {
      const here = pose.mine / frames.mine
      footer.push(
        `<MD2PoseBounds> vs the all-frames box at 300 Ogros: ${ratio(here, 2)} here (goal ≤ 1.1× → ${here <= 1.1 ? 'met' : 'MISSED'}), ` +
          `${ratio(pose.base / frames.base, 2)} at ${revision}.`,
      )
    }
    footer.push('Goal: each row within 5% of the revision (this / revision ≤ 1.05×).')
    return {
      title: `CPU rows: this checkout vs ${revision}`,
      note:
        `ms of ${CLOCK === 'cpu' ? 'CPU time' : 'wall time'} per frame, median of ${options.rounds} rounds × ${options.frames} frames, ` +
        "both trees' scenes mounted at once and their frames interleaved, one of each in turn; per round = the median and " +
        'the range of this / revision in each round.',
      head: ['row', `${revision} ms`, 'this ms', 'this / revision', 'per round: median', 'range'],
      rows,
      footer,
    }
  } finally {
    worktree.remove()
  }
}
