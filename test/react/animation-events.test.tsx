/**
 * The loop and end events name the animation that went round or ended (`animation.name`, with its frames),
 * on every component that has them: <MD2Model>, <MD2Player> (its body's), <MD2Instance>, and the controllers'
 * hooks; beside a `controller` they never fire, which development builds warn of. The Ogro, really decoded.
 */
import { useMemo } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2Animation } from '../../src/core/format/types'
import { MD2Instance, MD2Instances } from '../../src/react/MD2Instances'
import { MD2Model } from '../../src/react/MD2Model'
import { MD2Player } from '../../src/react/MD2Player'
import { clearPlayerFiles } from '../../src/react/loading/playerFiles'
import { useMD2 } from '../../src/react/loading/useMD2'
import { useMD2Skin } from '../../src/react/loading/useMD2Skin'
import { useMD2Animation } from '../../src/react/useMD2Animation'
import { readAsset } from '../support/assets'
import { mount } from '../support/render'
import { HOST, serveAssets } from '../support/serve'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })

afterEach(() => {
  vi.restoreAllMocks()
  clearPlayerFiles()
  useMD2.clear()
  useMD2Skin.clear()
})

/** Records each event as "loop run" or "end pain1", with the frames the animation named spans. */
function recorder() {
  const events: string[] = []
  const named = (kind: string) => (animation: MD2Animation) =>
    void events.push(`${kind} ${animation.name} ${animation.start}-${animation.end}`)
  return { events, onLoop: named('loop'), onAnimationEnd: named('end') }
}

// The Ogro's run is frames 40–45 and pain1 54–57, 10 keyframes a second: 1.5 s is two runs round, or pain1 over.
const RUN = 'run 40-45'
const PAIN = 'pain1 54-57'

async function play(r: Awaited<ReturnType<typeof mount>>, seconds: number) {
  for (let t = 0; t < seconds; t += 0.05) await r.advanceFrames(1, 0.05)
}

describe('loop and end events name their animation', () => {
  it('<MD2Model>: a run going round, then a pain played once', async () => {
    const { events, ...handlers } = recorder()
    const r = await mount(<MD2Model model={ogro} animation="run" {...handlers} />)
    await play(r, 1.5)
    expect(events).toEqual([`loop ${RUN}`, `loop ${RUN}`])
    events.length = 0
    await r.update(<MD2Model model={ogro} animation="pain1" loop={false} {...handlers} />)
    await play(r, 1.5)
    expect(events).toEqual([`end ${PAIN}`])
  })

  it("<MD2Player>: its body's, loaded from the player's folder", async () => {
    serveAssets()
    const { events, ...handlers } = recorder()
    const r = await mount(<MD2Player path={`${HOST}/a/quake2/ogro/`} skin="igdosh" animation="pain1" loop={false} {...handlers} />)
    await vi.waitFor(async () => {
      await r.advanceFrames(1, 0.05)
      expect(events).toEqual([`end ${PAIN}`])
    })
  })

  it('<MD2Instance>: each instance its own, from the crowd clock', async () => {
    const running = recorder()
    const hurt = recorder()
    const r = await mount(
      <MD2Instances model={ogro} limit={2}>
        <MD2Instance animation="run" onLoop={running.onLoop} onAnimationEnd={running.onAnimationEnd} />
        <MD2Instance animation="pain1" loop={false} onLoop={hurt.onLoop} onEnd={hurt.onAnimationEnd} />
      </MD2Instances>,
    )
    await play(r, 1.5)
    expect(running.events).toEqual([`loop ${RUN}`, `loop ${RUN}`])
    expect(hurt.events).toEqual([`end ${PAIN}`])
  })

  it('useMD2Animation: the controller a hook owns, shown by <MD2Model controller>', async () => {
    const { events, onLoop, onAnimationEnd } = recorder()
    function Hurt() {
      const controller = useMD2Animation(ogro, { animation: 'pain1', loop: false, onLoop, onEnd: onAnimationEnd })
      return <MD2Model model={ogro} controller={controller} />
    }
    const r = await mount(<Hurt />)
    await play(r, 1.5)
    expect(events).toEqual([`end ${PAIN}`])
  })

  it('beside a `controller` the props never fire, and development builds warn once, naming them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { events, ...handlers } = recorder()
    function Shown() {
      const controller = useMD2Animation(ogro, { animation: 'run' })
      const stable = useMemo(() => controller, [controller])
      return (
        <>
          <MD2Model model={ogro} controller={stable} {...handlers} />
          <MD2Instances model={ogro} limit={1}>
            <MD2Instance controller={stable} onLoop={handlers.onLoop} />
          </MD2Instances>
        </>
      )
    }
    const r = await mount(<Shown />)
    await play(r, 1.5)
    expect(events).toEqual([])
    const messages = warn.mock.calls.map(([message]) => String(message))
    expect(messages.filter((message) => message.includes('onLoop, onAnimationEnd beside a `controller` never fire'))).toHaveLength(1)
    expect(messages.filter((message) => message.includes('onLoop beside a `controller` never fire'))).toHaveLength(1)
  })
})
