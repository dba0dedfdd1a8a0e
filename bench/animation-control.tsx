/**
 * Animation control on the CPU: N <MD2Model> playing by props against N driven by useMD2Animation
 * controllers that are all mid-crossfade (the fade's extra blend included), same run, alternating.
 */
import { useEffect } from 'react'
import type { MD2AnimationController } from '../src/core/animation/MD2AnimationController'
import { parseMD2 } from '../src/core/format/parseMD2'
import type { MD2ModelData } from '../src/core/format/types'
import { MD2Model } from '../src/react/MD2Model'
import { MD2Quake2Lighting } from '../src/react/looks/MD2Quake2Lighting'
import { useMD2Animation } from '../src/react/useMD2Animation'
import { OGRO, readArrayBuffer } from './lib/models'
import { compareOgros, compareScenes } from './lib/compare'
import { type Table, fmt, perFrameNote, ratio } from './lib/stats'

export interface AnimationControlOptions {
  count: number
  rounds: number
  frames: number
}

function Crossfading({ model, index, controllers }: { model: MD2ModelData; index: number; controllers: MD2AnimationController[] }) {
  const controller = useMD2Animation(model, { animation: 'stand' })
  useEffect(() => {
    controllers[index] = controller
  })
  return <MD2Model model={model} controller={controller} />
}

/** 300 Ogros lit by three (Lambert) against the same lit by Quake II's table, same run, alternating. */
export async function runQuake2LightingBench(options: AnimationControlOptions): Promise<Table> {
  const n = options.count
  const { lambert, quake2 } = await compareOgros(
    ['lambert', 'quake2'],
    () => ({}),
    options,
    (lighting) => (lighting === 'quake2' ? <MD2Quake2Lighting /> : null),
  )
  const r = quake2 / lambert
  return {
    title: 'Quake II lighting, CPU: <MD2Quake2Lighting> vs Lambert',
    note:
      perFrameNote(options) +
      `${n} Ogros playing run; Lambert writes positions and normals, Quake II lighting positions and per-vertex colours.`,
    head: ['Ogros', 'Lambert ms', 'quake2 ms', 'ratio'],
    rows: [[n, fmt(lambert, 3), fmt(quake2, 3), ratio(r, 2)]],
    footer: [`Target: at most 1.2× Lambert → ${r <= 1.2 ? 'met' : 'MISSED'} (${ratio(r, 2)}).`],
  }
}

export async function runAnimationControlBench(options: AnimationControlOptions): Promise<Table> {
  const model = parseMD2(readArrayBuffer(OGRO), { name: 'ogro' })
  const n = options.count
  let controllers: MD2AnimationController[] = []
  const { plain, fading } = await compareScenes(
    ['plain', 'fading'],
    (kind) => {
      controllers = []
      return (
        <>
          {Array.from({ length: n }, (_, i) =>
            kind === 'plain' ? (
              <MD2Model key={i} model={model} animation="run" />
            ) : (
              <Crossfading key={i} model={model} index={i} controllers={controllers} />
            ),
          )}
        </>
      )
    },
    options,
    // Fades longer than the measurement: every frame timed blends two poses and mixes them.
    () => controllers.forEach((controller) => controller.play('run', { crossfade: 3600 })),
  )
  const r = fading / plain
  return {
    title: 'Animation control, CPU: controllers mid-crossfade vs plain instances',
    note:
      perFrameNote(options) +
      `${n} Ogros stepped with advanceFrames(1, 1/60): "plain" play run by props; "crossfading" are driven by useMD2Animation ` +
      'controllers, each mid-fade from stand into run for the whole measurement.',
    head: ['Ogros', 'plain ms', 'crossfading ms', 'ratio'],
    rows: [[n, fmt(plain, 3), fmt(fading, 3), ratio(r, 2)]],
    footer: [`Target: within 1.5× of plain → ${r <= 1.5 ? 'met' : 'MISSED'} (${ratio(r, 2)}).`],
  }
}
