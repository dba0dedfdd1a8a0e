/**
 * `height` and `origin` in real Chromium: the ogro made 1.8 units tall with its feet at its position draws the
 * same silhouette as <MD2Model>, as <MD2Player> and as an <MD2Instance> of <MD2Instances> (with its weapon: a
 * synced <MD2Model>, the player's `weapon`, a synced follower crowd), its feet on y = 0 and its head at 1.8.
 * Seen side-on through an orthographic camera, 100 pixels a unit, so a height reads off the rows at any depth.
 */
import { useThree } from '@react-three/fiber'
import { useLayoutEffect, useMemo, type ReactNode } from 'react'
import { MeshBasicMaterial, OrthographicCamera } from 'three'
import { expect, test } from 'vitest'
import { getStandingBounds } from '../../src/core/format/standingBounds'
import type { MD2ModelData } from '../../src/core/internal'
import { MD2Instance, MD2Instances, MD2Model, MD2Player, parseMD2 } from '../../src/index'
import type { Picture } from '../../stories/support/pixels'
import { BLACK, mount, type Mounted } from './canvas'

const FOLDER = '/assets/quake2/ogro/'
const OGRO = `${FOLDER}tris.MD2`
const RAILGUN = `${FOLDER}w_railgun.MD2`
const FILES = ['tris.MD2', 'w_railgun.MD2', 'igdosh.pcx', 'g_rail.pcx']
const HEIGHT = 1.8
const red = new MeshBasicMaterial({ color: '#ff0000' })

/** The view: x from −2 to 2 and y from −0.6 to 2.4 on the 400×300 canvas, so world y is row 240 − 100 y (from the top). */
const TOP = 2.4
const PIXELS_PER_UNIT = 100
// Rounded past float noise: (2.4 − 1.8) × 100 is 60.00000000000001.
const rowOf = (y: number) => Math.round((TOP - y) * PIXELS_PER_UNIT * 1e6) / 1e6

function SideView() {
  const set = useThree((state) => state.set)
  const camera = useMemo(() => {
    const side = new OrthographicCamera(-2, 2, TOP, TOP - 3, 0.1, 100)
    side.position.set(0, 0, 10)
    // R3F leaves a manual camera's frustum as made.
    Object.assign(side, { manual: true })
    side.updateMatrixWorld()
    return side
  }, [])
  useLayoutEffect(() => set({ camera }), [set, camera])
  return null
}

/** The drawn pixels (not the black background) of `picture`, one flag each, and the rows they span (from the top). */
function silhouette(picture: Picture): { mask: Uint8Array; top: number; bottom: number; count: number } {
  const mask = new Uint8Array(picture.width * picture.height)
  let top = Infinity
  let bottom = -Infinity
  let count = 0
  for (let p = 0; p < mask.length; p++) {
    const d = picture.data
    if (Math.abs(d[p * 4]! - BLACK[0]) + Math.abs(d[p * 4 + 1]! - BLACK[1]) + Math.abs(d[p * 4 + 2]! - BLACK[2]) <= 6) continue
    mask[p] = 1
    count++
    const row = Math.floor(p / picture.width)
    top = Math.min(top, row)
    bottom = Math.max(bottom, row)
  }
  return { mask, top, bottom, count }
}

function differing(a: Uint8Array, b: Uint8Array): number {
  let n = 0
  for (let p = 0; p < a.length; p++) if (a[p] !== b[p]) n++
  return n
}

/**
 * Shows `scene` on the canvas (after an empty one, so no frame of the last scene is taken for it) and returns its
 * silhouette once settled with more than `least` pixels drawn (a weapon in its own Suspense may come a while after
 * the body).
 */
async function silhouetteOf({ stage, render }: Pick<Mounted, 'stage' | 'render'>, scene: ReactNode, what: string, least = 3000) {
  render(<SideView />)
  await stage.settle((p) => silhouette(p).count === 0, 'an empty canvas')
  render(
    <>
      <SideView />
      {scene}
    </>,
  )
  return silhouette(await stage.settle((p) => silhouette(p).count > least, what))
}

async function loadOgro(): Promise<MD2ModelData> {
  return parseMD2(await (await fetch(OGRO)).arrayBuffer(), { name: OGRO }) as MD2ModelData
}

for (const armed of [false, true]) {
  test(`height={${HEIGHT}} origin="feet" draws the same ogro${armed ? ' and railgun' : ''} as <MD2Model>, <MD2Player> and <MD2Instance>, feet on y = 0`, async () => {
    const size = { height: HEIGHT, origin: 'feet' } as const
    const model = (
      <MD2Model url={OGRO} {...size} material={red} frame={0}>
        {armed && <MD2Model url={RAILGUN} sync material={red} />}
      </MD2Model>
    )
    const player = <MD2Player path={FOLDER} files={FILES} weapon={armed ? 'railgun' : null} {...size} material={red} frame={0} />
    const crowd = (
      // No skin: lit white all over, with no dark texel taken for the background.
      <MD2Instances url={OGRO} skin={null} {...size} limit={1}>
        <MD2Instance frame={0} />
        {armed && <MD2Instances url={RAILGUN} skin={null} sync />}
      </MD2Instances>
    )
    const mounted = await mount(<SideView />)
    // Armed: each picture counted once it shows more than the body alone (and the weapon's pixels are there).
    const body = armed
      ? await silhouetteOf(mounted, <MD2Model url={OGRO} {...size} material={red} frame={0} />, 'the body alone')
      : undefined
    const least = body ? body.count + 100 : 3000
    const shown = {
      model: await silhouetteOf(mounted, model, '<MD2Model>', least),
      player: await silhouetteOf(mounted, player, '<MD2Player>', least),
      instance: await silhouetteOf(mounted, crowd, '<MD2Instance>', least),
    }
    const drawn = shown.model.count
    // The ogro is about 1.8 units (180 rows) tall and ~40 wide: thousands of pixels.
    expect(drawn).toBeGreaterThan(4000)
    for (const other of ['player', 'instance'] as const) {
      const n = differing(shown.model.mask, shown[other].mask)
      // As the CPU and GPU paths of one scene differ (crowd.test.tsx): a handful of edge pixels.
      expect(n, `${n} of ${drawn} pixels differ between <MD2Model> and <${other}>`).toBeLessThanOrEqual(Math.max(12, drawn * 0.002))
    }
    for (const [which, { top, bottom }] of Object.entries(shown)) {
      // The lowest pixel row is the one just above y = 0 (row 240); the highest the one just below y = 1.8 (row 60):
      // within a row, as the feet and the head end in points that may miss a row's pixel centres.
      expect(bottom, `${which}'s feet`).toBeGreaterThanOrEqual(rowOf(0) - 2)
      expect(bottom, `${which}'s feet`).toBeLessThanOrEqual(rowOf(0) - 1)
      // Armed, the railgun's muzzle rises above the head.
      if (armed) continue
      expect(top, `${which}'s head`).toBeGreaterThanOrEqual(rowOf(HEIGHT))
      expect(top, `${which}'s head`).toBeLessThanOrEqual(rowOf(HEIGHT) + 1)
    }
  })
}

test('origin="quake2" (the default) puts the file\'s origin at the position: the feet fall to its standing frame\'s lowest point, scaled', async () => {
  const ogro = await loadOgro()
  const { min, height } = getStandingBounds(ogro)
  const mounted = await mount(<SideView />)
  const at = 1
  const shown = await silhouetteOf(
    mounted,
    <MD2Model model={ogro} height={HEIGHT} material={red} frame={0} position={[0, at, 0]} />,
    'origin="quake2"',
  )
  const feet = at + (min[1] * HEIGHT) / height
  // The feet some 0.84 units below the origin; the head 1.8 above the feet.
  expect(shown.bottom).toBeGreaterThanOrEqual(rowOf(feet) - 2)
  expect(shown.bottom).toBeLessThanOrEqual(rowOf(feet))
  expect(shown.top).toBeGreaterThanOrEqual(rowOf(feet + HEIGHT) - 1)
  expect(shown.top).toBeLessThanOrEqual(rowOf(feet + HEIGHT) + 1)
})
