import ReactThreeTestRenderer from '@react-three/test-renderer'
import type { ReactElement } from 'react'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Model, type MD2ModelProps } from '../../src/react/MD2Model'
import { OGRO, readArrayBuffer } from './models'
import { median, now } from './stats'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>

const DELTA = 1 / 60

export interface CompareOptions {
  rounds: number
  frames: number
}

/** A comparison of N instances each way. */
export interface CountedCompareOptions extends CompareOptions {
  count: number
}

/**
 * CPU time per frame of scenes in the test renderer, measured in the same run, the order rotating each
 * round (two scenes alternate which goes first): each scene is mounted, warmed up for 30 frames,
 * `prepare`d, timed over `frames` frames of 1/60 s (the median), and unmounted. Returns the median over
 * rounds of each.
 */
export async function compareScenes<K extends string>(
  kinds: readonly K[],
  scene: (kind: K) => ReactElement,
  options: CompareOptions,
  prepare?: (kind: K, renderer: Renderer) => void | Promise<void>,
): Promise<Record<K, number>> {
  const samples = await sampleScenes(kinds, scene, options, prepare)
  return Object.fromEntries(kinds.map((kind) => [kind, median(samples[kind])])) as Record<K, number>
}

/** `compareScenes`' samples: per kind, one median ms per frame per round, in round order. */
export async function sampleScenes<K extends string>(
  kinds: readonly K[],
  scene: (kind: K) => ReactElement,
  options: CompareOptions,
  prepare?: (kind: K, renderer: Renderer) => void | Promise<void>,
): Promise<Record<K, number[]>> {
  const samples = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(k + round) % kinds.length]!
      const renderer = await ReactThreeTestRenderer.create(scene(kind))
      await renderer.advanceFrames(5, DELTA)
      await prepare?.(kind, renderer)
      for (let f = 0; f < 30; f++) await renderer.advanceFrames(1, DELTA)
      const times: number[] = []
      for (let f = 0; f < options.frames; f++) {
        const start = now()
        await renderer.advanceFrames(1, DELTA)
        times.push(now() - start)
      }
      samples[kind].push(median(times))
      await renderer.unmount()
    }
    process.stdout.write('.')
  }
  process.stdout.write('\n')
  return samples
}

/**
 * Like `sampleScenes`, but with every scene mounted at once and their frames interleaved (one frame of
 * each in turn, the order rotating), so that a change in the machine's load between two scenes' turns
 * touches both: for comparing the same scene built from two source trees. Per kind, one median ms per
 * frame per round (each round mounts afresh).
 */
export async function interleaveScenes<K extends string>(
  kinds: readonly K[],
  scene: (kind: K) => ReactElement,
  options: CompareOptions,
  prepare?: (kind: K, renderer: Renderer) => void | Promise<void>,
): Promise<Record<K, number[]>> {
  const samples = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < options.rounds; round++) {
    const order = kinds.map((_, k) => kinds[(k + round) % kinds.length]!)
    const renderers = {} as Record<K, Renderer>
    for (const kind of order) {
      renderers[kind] = await ReactThreeTestRenderer.create(scene(kind))
      await renderers[kind].advanceFrames(5, DELTA)
      await prepare?.(kind, renderers[kind])
    }
    for (let f = 0; f < 30; f++) for (const kind of order) await renderers[kind].advanceFrames(1, DELTA)
    const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<K, number[]>
    for (let f = 0; f < options.frames; f++) {
      for (let k = 0; k < order.length; k++) {
        const kind = order[(k + f) % order.length]!
        const start = now()
        await renderers[kind].advanceFrames(1, DELTA)
        times[kind].push(now() - start)
      }
    }
    for (const kind of kinds) {
      samples[kind].push(median(times[kind]))
      await renderers[kind].unmount()
    }
    process.stdout.write('.')
  }
  process.stdout.write('\n')
  return samples
}

/**
 * `compareScenes` of `options.count` running Ogros each way, turned apart, whose props differ by kind
 * (`propsOf(kind, i)`): the cost of one feature of `<MD2Model>` at scale.
 */
export async function compareOgros<K extends string>(
  kinds: readonly [K, K],
  propsOf: (kind: K, i: number) => Partial<MD2ModelProps>,
  options: CountedCompareOptions,
): Promise<Record<K, number>> {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'ogro' })
  return compareScenes(
    kinds,
    (kind) => (
      <>
        {Array.from({ length: options.count }, (_, i) => (
          <MD2Model key={i} model={model} animation="run" rotation-y={i * 0.1} {...propsOf(kind, i)} />
        ))}
      </>
    ),
    options,
  )
}
