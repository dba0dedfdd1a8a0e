/**
 * Benchmark 2, animate on the CPU: N <MD2Model> instances advanced with @react-three/test-renderer at
 * 60 fps, against (a) the floor, a bare loop blending the same frames into the same number of floats,
 * and (b) three.js's AnimationMixer on MD2Loader morph-target meshes (its CPU part, mixer.update).
 */
import { readFileSync } from 'node:fs'
import ReactThreeTestRenderer from '@react-three/test-renderer'
import { useFrame } from '@react-three/fiber'
import { AnimationClip, AnimationMixer, Mesh, MeshLambertMaterial, type BufferGeometry } from 'three'
import { MD2Loader as ThreeMD2Loader } from 'three/addons/loaders/MD2Loader.js'
import { KeyframeClock } from '../src/core/animation/KeyframeClock'
import { parseAnimationTable } from '../src/core/format/animationTable'
import { blendVerticesYUp } from '../src/core/animation/blendVertices'
import { parseMD2 } from '../src/core/format/parseMD2'
import type { MD2ModelData } from '../src/core/format/types'
import { MD2Model } from '../src/react/MD2Model'
import { getMD2RenderData } from '../src/three/mesh/MD2Geometry'
import { OGRO, SOLDIER, SOLDIER_ANM, readArrayBuffer } from './lib/models'
import { CLOCK, type Table, fmt, median, now, ratio } from './lib/stats'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export interface AnimateCpuOptions {
  counts: number[]
  rounds: number
  /** Frames timed per round (each timed on its own). */
  frames: number
}

const DELTA = 1 / 60

interface Subject {
  label: string
  model: MD2ModelData
  buffer: ArrayBuffer
  animation: string
  table?: ReturnType<typeof parseAnimationTable>
  start: number
  end: number
  fps: number
}

function subjects(): Subject[] {
  const ogroBuffer = readArrayBuffer(OGRO)
  const ogro = parseMD2(ogroBuffer, { name: 'ogro' })
  const run = ogro.animations.find((a) => a.name === 'run')!
  const soldierBuffer = readArrayBuffer(SOLDIER)
  const table = parseAnimationTable(readFileSync(SOLDIER_ANM, 'utf8'))
  const soldier = parseMD2(soldierBuffer, { name: 'soldier', animations: table })
  const walk = soldier.animations.find((a) => a.name === 'walk0')!
  return [
    { label: 'Ogro', model: ogro, buffer: ogroBuffer, animation: 'run', start: run.start, end: run.end, fps: run.fps },
    { label: 'soldier', model: soldier, buffer: soldierBuffer, animation: 'walk0', table, start: walk.start, end: walk.end, fps: walk.fps },
  ]
}

/**
 * Times `samples` samples of `batch` frames each (one frame per sample from N = 300 up, enough frames
 * per sample below that for the clock's resolution); returns the median ms per frame.
 */
async function timeFrames(samples: number, batch: number, step: () => void | Promise<void>): Promise<number> {
  const times: number[] = []
  for (let s = 0; s < samples; s++) {
    const start = now()
    for (let f = 0; f < batch; f++) await step()
    times.push((now() - start) / batch)
  }
  return median(times)
}

type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

function Empty() {
  useFrame(() => {})
  return null
}

interface Runner {
  /** Prepares N instances; returns one frame's work and a cleanup. */
  setup(n: number): Promise<{ step: () => void | Promise<void>; done: () => Promise<void> }>
}

function md2Runner(subject: Subject): Runner {
  return {
    async setup(n) {
      const renderer: Renderer = await ReactThreeTestRenderer.create(
        <>
          {Array.from({ length: n }, (_, i) => (
            <MD2Model key={i} model={subject.model} animation={subject.animation} />
          ))}
        </>,
      )
      return {
        step: () => renderer.advanceFrames(1, DELTA),
        done: () => renderer.unmount(),
      }
    },
  }
}

/** The test renderer's own cost: N useFrame subscribers that do nothing. */
function harnessRunner(): Runner {
  return {
    async setup(n) {
      const renderer: Renderer = await ReactThreeTestRenderer.create(
        <>
          {Array.from({ length: n }, (_, i) => (
            <Empty key={i} />
          ))}
        </>,
      )
      return { step: () => renderer.advanceFrames(1, DELTA), done: () => renderer.unmount() }
    },
  }
}

/** The floor: the same blends into the same number of floats, in a bare loop (one animation clock). */
function floorRunner(subject: Subject): Runner {
  return {
    async setup(n) {
      const { layout } = getMD2RenderData(subject.model)
      const size = layout.vertexCount * 3
      const positions = Array.from({ length: n }, () => new Float32Array(size))
      const normals = Array.from({ length: n }, () => new Float32Array(size))
      const model = subject.model
      const clock = new KeyframeClock(model.header.numFrames)
      clock.play(subject, { loop: true })
      const pose = clock.pose
      const targets = positions.map((p, i) => ({ xyzIndex: layout.xyzIndex, positions: p, normals: normals[i]! }))
      return {
        step: () => {
          clock.advance(DELTA)
          for (let i = 0; i < n; i++) blendVerticesYUp(model, pose, targets[i]!)
        },
        done: async () => {},
      }
    },
  }
}

/** three.js: MD2Loader geometry (parsed once, shared), one mesh and AnimationMixer per instance, as MD2Character does. */
function threeRunner(subject: Subject): Runner {
  let geometry: BufferGeometry | undefined
  let clip: AnimationClip | undefined
  return {
    async setup(n) {
      if (!geometry) {
        geometry = new ThreeMD2Loader().parse(subject.buffer)
        // Unique morph target names (the soldier's frames are all called "FRAME..."), then a clip over the same range.
        const targets = geometry.morphAttributes.position!
        targets.forEach((attribute, i) => (attribute.name = `f${i}`))
        geometry.morphAttributes.normal!.forEach((attribute, i) => (attribute.name = `f${i}`))
        clip = AnimationClip.CreateFromMorphTargetSequence(
          subject.animation,
          targets.slice(subject.start, subject.end + 1) as unknown as Parameters<typeof AnimationClip.CreateFromMorphTargetSequence>[1],
          subject.fps,
          false,
        )
      }
      const material = new MeshLambertMaterial()
      const mixers = Array.from({ length: n }, () => {
        const mesh = new Mesh(geometry, material)
        const mixer = new AnimationMixer(mesh)
        mixer.clipAction(clip!).play()
        return mixer
      })
      return {
        step: () => {
          for (let i = 0; i < n; i++) mixers[i]!.update(DELTA)
        },
        done: async () => {
          for (const mixer of mixers) mixer.stopAllAction()
          material.dispose()
        },
      }
    },
  }
}

export async function runAnimateCpuBench(options: AnimateCpuOptions): Promise<Table> {
  const rows: (string | number)[][] = []
  const footer: string[] = []
  let target: { ms: number; ratio: number } | undefined
  for (const subject of subjects()) {
    const runners = {
      md2: md2Runner(subject),
      floor: floorRunner(subject),
      three: threeRunner(subject),
      harness: harnessRunner(),
    }
    for (const n of options.counts) {
      const samples: Record<keyof typeof runners, number[]> = { md2: [], floor: [], three: [], harness: [] }
      const order = Object.keys(runners) as (keyof typeof runners)[]
      for (let round = 0; round < options.rounds; round++) {
        // Alternate: every round runs each contender once, the order rotating.
        for (let k = 0; k < order.length; k++) {
          const name = order[(k + round) % order.length]!
          const { step, done } = await runners[name].setup(n)
          for (let f = 0; f < 30; f++) await step() // warm-up: JIT and first writes
          samples[name].push(await timeFrames(options.frames, Math.max(1, Math.floor(300 / n)), step))
          await done()
        }
      }
      const ms = Object.fromEntries(order.map((name) => [name, median(samples[name])])) as Record<keyof typeof runners, number>
      const { layout } = getMD2RenderData(subject.model)
      rows.push([
        `${subject.label} × ${n}`,
        fmt(ms.md2, 3),
        fmt(ms.floor, 3),
        ratio(ms.md2 / ms.floor, 2),
        fmt(ms.harness, 3),
        fmt(ms.three, 3),
        ratio(ms.md2 / ms.three, 2),
        fmt((n * layout.vertexCount * 6 * 4) / 1024, 0),
      ])
      if (subject.label === 'Ogro' && n === 300) target = { ms: ms.md2, ratio: ms.md2 / ms.floor }
    }
    process.stdout.write('.')
  }
  process.stdout.write('\n')
  if (target) {
    footer.push(
      `Target: 300 Ogros ≤ 3× the floor → ${target.ratio <= 3 ? 'met' : 'MISSED'} (${ratio(target.ratio, 2)}); ` +
        `under 8 ms a frame → ${target.ms < 8 ? 'met' : 'MISSED'} (${fmt(target.ms, 2)} ms).`,
    )
  }
  footer.push(
    "three.js's CPU figure is only AnimationMixer.update (it sets morph influences): its blending happens on the GPU " +
      'in every draw, reading every frame of the model from a morph texture (see the browser table).',
  )
  return {
    title: 'Animate, CPU: <MD2Model> vs the blend floor and three.js AnimationMixer',
    note:
      `ms of ${CLOCK === 'cpu' ? 'CPU time (user + system, this process)' : 'wall time'} per frame, median of ${options.rounds} rounds × ` +
      `${options.frames} samples (one frame each from N = 300 up, 300/N frames below), stepped with advanceFrames(1, 1/60). ` +
      'Ogro plays "run" (6 keyframes at 10 fps), the soldier "walk0" (31 keyframes at 30 fps, from body.anm); ' +
      'every frame blends positions and normals. harness = the test renderer calling N empty useFrame callbacks.',
    head: ['model × N', 'MD2Model ms', 'floor ms', 'vs floor', 'harness ms', 'three mixer ms', 'vs three', 'KB written'],
    rows,
    footer,
  }
}
