import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { coverage, difference, findStage, type Picture } from './support/pixels'
import { buildCharacter } from './support/character'
import { buildRig, exportRig } from './support/rig'
import { sourceOfFiles, Viewer } from './support/Viewer'

/**
 * A drop-in viewer built on the library: drop `.md2` files with their skins, a folder, or a whole
 * `.pak`/`.pk3`/`.zip` on it (or pick them), choose a model, play, scrub and loop its animations, switch
 * skins, show wireframe, vertex normals, the all-frames bounds and UFO:AI tags, read the file's header and
 * warnings, and export the model as glTF (`.glb`, one morph target per keyframe, a clip per animation,
 * the skin embedded) or save it again as `.md2`. Files are read in the page (`openArchive`,
 * `<MD2Archive archive>`): nothing is uploaded. `npm run build-storybook` builds it as a static page.
 *
 * Its check drops the bundled Ogro folder (by Magarnigal, skins by Ogro_Fix and Deranged; see
 * `assets/CREDITS.md`) as a browser would deliver it.
 */
const meta = {
  title: 'Tools/Viewer',
  component: Viewer,
  // The viewer brings its own <Canvas> beside its panel.
  parameters: { layout: 'fullscreen', stage: false },
} satisfies Meta<typeof Viewer>

export default meta
type Story = StoryObj<typeof meta>

/** The bundled ogro folder's files, as served. */
const OGRO_FOLDER = import.meta.glob('../assets/quake2/ogro/*.{md2,MD2,pcx,txt}', {
  query: '?url',
  import: 'default',
  eager: true,
}) as Record<string, string>

/** Share of drawn pixels that are the missing-skin checkerboard's magenta. */
function magentaShare(picture: Picture): number {
  let drawn = 0
  let magenta = 0
  for (let i = 0; i < picture.data.length; i += 4) {
    const [r, g, b] = [picture.data[i]!, picture.data[i + 1]!, picture.data[i + 2]!]
    if (Math.abs(r - 0x1d) + Math.abs(g - 0x27) + Math.abs(b - 0x33) < 18) continue
    drawn++
    if (r > 200 && g < 60 && b > 200) magenta++
  }
  return drawn === 0 ? 1 : magenta / drawn
}

export const DropAFolder: Story = {
  play: async ({ canvasElement }) => {
    const zone = canvasElement.querySelector<HTMLElement>('[data-testid="viewer-drop"]')!
    const transfer = new DataTransfer()
    for (const [path, url] of Object.entries(OGRO_FOLDER)) {
      const bytes = await (await fetch(url)).arrayBuffer()
      transfer.items.add(new File([bytes], path.slice(path.lastIndexOf('/') + 1)))
    }
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))

    await waitFor(() => expect(canvasElement.querySelector<HTMLSelectElement>('[data-testid="viewer-model"]')?.value).toBe('tris.MD2'), {
      timeout: 30_000,
    })
    const header = canvasElement.querySelector('[data-testid="viewer-header"]')!
    expect(header.textContent).toContain('numFrames199')
    expect(canvasElement.querySelector('[data-testid="viewer-warnings"]')!.textContent).toBe('No warnings.')

    // Skinned: the model covers the view in the skin's colours, not the missing-skin checkerboard.
    const stage = await findStage(canvasElement)
    const first = await stage.until((p) => coverage(p) > 0.03 && magentaShare(p) < 0.01, 'the ogro drawn with its skin')
    // Animated: the picture keeps changing on its own (the camera does not move).
    const later = await stage.until((p) => difference(first, p) > 500, 'the ogro moving')
    expect(magentaShare(later)).toBeLessThan(0.01)

    // Scrubbing shows one frame and holds it.
    const scrub = canvasElement.querySelector<HTMLInputElement>('[data-testid="viewer-scrub"]')!
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    setter.call(scrub, '40')
    scrub.dispatchEvent(new Event('input', { bubbles: true }))
    await stage.settle((p) => coverage(p) > 0.03, 'frame 40 held still')
  },
}

/** The bundled ogro folder, opened at start (as if dropped): the viewer with a model in it. */
export const WithOgro: Story = {
  loaders: [
    async () => ({
      initial: await sourceOfFiles(
        await Promise.all(
          Object.entries(OGRO_FOLDER).map(async ([path, url]) => ({
            path: path.slice(path.lastIndexOf('/') + 1),
            file: new Blob([await (await fetch(url)).arrayBuffer()]),
          })),
        ),
      ),
    }),
  ],
  render: (_, { loaded }) => <Viewer initial={(loaded as { initial: Awaited<ReturnType<typeof sourceOfFiles>> }).initial} />,
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.until((p) => coverage(p) > 0.03 && magentaShare(p) < 0.01, 'the ogro drawn with its skin')
  },
}

/**
 * A rigged character dropped as a `.glb` (built with three.js and exported by GLTFExporter: an armature
 * scaled 0.01, three bones, a club on the arm, three clips, a texture in Quake II colours): baked in the
 * page to an MD2 with one animation per clip and a PCX skin, the source playing on the left, the MD2 on
 * the right.
 */
export const DropAGlb: Story = {
  play: async ({ canvasElement }) => {
    const { scene, clips } = buildRig()
    const glb = await exportRig(scene, clips)
    const zone = canvasElement.querySelector<HTMLElement>('[data-testid="viewer-drop"]')!
    const transfer = new DataTransfer()
    transfer.items.add(new File([glb.slice()], 'rig.glb'))
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))

    await waitFor(() => expect(canvasElement.querySelector<HTMLSelectElement>('[data-testid="viewer-model"]')?.value).toBe('rig.md2'), {
      timeout: 30_000,
    })
    expect(canvasElement.querySelector('[data-testid="viewer-header"]')!.textContent).toContain('numFrames22')
    const options = [...canvasElement.querySelectorAll<HTMLOptionElement>('[data-testid="viewer-animation"] option')].map((o) => o.value)
    expect(options).toEqual(['Walk', 'Wave', 'Idle_Breath'])
    // Both drawn, side by side: the source on the left, the MD2 (in its PCX skin, no checkerboard) on the right.
    const stage = await findStage(canvasElement)
    await stage.until(
      (p) => coverage(p, { right: 0.5 }) > 0.01 && coverage(p, { left: 0.5 }) > 0.01 && magentaShare(p) < 0.01,
      'the source and its bake drawn side by side',
    )
  },
}

/**
 * A high-poly character dropped (Mixamo-style: a 0.01 armature, two skinned meshes, about 3,900 vertices
 * and 6,500 triangles, past MD2's 2,048 and 4,096): the viewer says which limits it passes and offers to
 * simplify it; simplified with meshoptimizer in the page, it bakes and plays beside its source.
 */
export const SimplifyADroppedCharacter: Story = {
  play: async ({ canvasElement }) => {
    const { scene, clips } = buildCharacter({ detail: 0.35 })
    const glb = await exportRig(scene, clips)
    const zone = canvasElement.querySelector<HTMLElement>('[data-testid="viewer-drop"]')!
    const transfer = new DataTransfer()
    transfer.items.add(new File([glb.slice()], 'hero.glb'))
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))

    const simplify = await waitFor(
      () => {
        const button = canvasElement.querySelector<HTMLButtonElement>('[data-testid="viewer-simplify"]')
        expect(button).toBeTruthy()
        return button!
      },
      { timeout: 30_000 },
    )
    expect(canvasElement.textContent).toMatch(/6460 triangles, 2364 past MD2's 4096; \d+ vertices, \d+ past MD2's 2048/)
    simplify.click()
    await waitFor(() => expect(canvasElement.querySelector<HTMLSelectElement>('[data-testid="viewer-model"]')?.value).toBe('hero.md2'), {
      timeout: 30_000,
    })
    expect(canvasElement.textContent).toMatch(/simplified from 6460 to \d+ triangles/)
    const header = canvasElement.querySelector('[data-testid="viewer-header"]')!.textContent!
    const vertices = Number(/numVertices(\d+)/.exec(header)?.[1])
    const triangles = Number(/numTris(\d+)/.exec(header)?.[1])
    expect(vertices).toBeLessThanOrEqual(2048)
    expect(triangles).toBeLessThanOrEqual(4096)
    const options = [...canvasElement.querySelectorAll<HTMLOptionElement>('[data-testid="viewer-animation"] option')].map((o) => o.value)
    expect(options).toEqual(['Walk', 'Wave', 'Idle'])
    const stage = await findStage(canvasElement)
    await stage.until(
      (p) => coverage(p, { right: 0.5 }) > 0.01 && coverage(p, { left: 0.5 }) > 0.01 && magentaShare(p) < 0.01,
      'the source and its simplified bake drawn side by side',
    )
  },
}
