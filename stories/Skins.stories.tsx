import type { Meta, StoryObj } from '@storybook/react-vite'
import { splitStory, expectPictureAgain } from './support/story-kinds'
import { DataTexture, LinearFilter, LinearMipmapLinearFilter, RGBAFormat, SRGBColorSpace, UnsignedByteType } from 'three'
import { expect } from 'storybook/test'
import { frameCount as ogroFrames, skins as ogroSkinNames } from '../assets/quake2/ogro/tris.MD2?md2-animations'
import { frameCount as ratamahattaFrames } from '../assets/quake2/ratamahatta/tris.md2?md2-animations'
import { skins as ratamahattaWeaponSkinNames } from '../assets/quake2/ratamahatta/weapon.MD2?md2-animations'
import {
  folderFiles as bloodspiderFiles,
  frameCount as bloodspiderFrames,
  skins as bloodspiderSkinNames,
} from '../assets/ufoai/bloodspider/bloodspider.md2?md2-animations'
import { MD2Model, decodePCX, useMD2Skin, type MD2ModelProps } from '../src/index'
import { BLOODSPIDER, OGRO, RATAMAHATTA, RATAMAHATTA_WEAPON } from './support/assets'
import { useLiveArgs, setStoryArgs } from './support/live-args'
import { LiveMD2 } from './support/LiveMD2'
import { coverage, difference, findStage, type Picture, type StageProbe } from './support/pixels'

/**
 * Skins straight from the model folders: Quake II's 8-bit PCX files decoded by the library (no PNG
 * conversion), skin names written inside the model files resolved next to the model (Ogro's
 * `players/ogro/igdosh.pcx`, the UFO:AI bloodspider's extension-less `.bloodspider`), and the
 * magenta/black checkerboard for a name that matches no file.
 *
 * Ogro by Magarnigal (skins by Ogro_Fix and Deranged); Ratamahatta by Brian "EvilBastard" Collins;
 * the bloodspider from UFO: Alien Invasion (GPL-2+ / CC-BY-SA-3.0, the UFO:AI Team). See
 * `assets/CREDITS.md`.
 */

/** The folder of a served file, ending in '/'. */
const folderOf = (url: string) => url.slice(0, url.lastIndexOf('/') + 1)
const fileOf = (name: string) => name.slice(name.replace(/\\/g, '/').lastIndexOf('/') + 1)

const OGRO_DIR = folderOf(OGRO)
const RATAMAHATTA_DIR = folderOf(RATAMAHATTA)
const BLOODSPIDER_DIR = folderOf(BLOODSPIDER)

/** Ogro's PCX skins that `tris.MD2` does not name (loaded by URL). */
const OGRO_EXTRA_PCX = ['ogrobase', 'sharokh', 'cloth'].map((name) => `${OGRO_DIR}${name}.pcx`)
/** The skin select for Ogro: the 13 names written in the file, then the other PCX files by URL. */
const OGRO_SKIN_OPTIONS = [...ogroSkinNames, ...OGRO_EXTRA_PCX]
/** Ratamahatta's file names no skin: his original PCX skins by URL (file names as shipped, mixed case). */
const RATAMAHATTA_PCX = ['Ratamahatta', 'Gearwhore', 'ctf_b', 'ctf_r', 'dead', 'jaws'].map((name) => `${RATAMAHATTA_DIR}${name}.pcx`)

function skinSelect(options: readonly string[], describe: (option: string) => string, description: string) {
  return {
    control: { type: 'select' as const, labels: Object.fromEntries(options.map((option) => [option, describe(option)])) },
    options: [...options],
    description,
  }
}

const meta = {
  title: 'Skins',
  component: LiveMD2,
  args: { playing: false, loop: true, interpolate: true, speed: 1, scale: 1, wireframe: false },
  argTypes: {
    url: { control: false },
    model: { control: false },
    animationTable: { control: false },
    material: { control: false },
    onAnimationEnd: { control: false },
  },
} satisfies Meta<typeof LiveMD2>

export default meta
type Story = StoryObj<typeof meta>

// ---------------------------------------------------------------------------------------------
// Pixel helpers for skins

/** Pixels showing the missing-skin checkerboard's magenta (lit: red and blue alike, no green). */
function magenta(picture: Picture): number {
  const { data } = picture
  let count = 0
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i]!
    const g = data[i + 1]!
    const b = data[i + 2]!
    if (g < 24 && r > 60 && b > 60 && Math.abs(r - b) < 24) count++
  }
  return count
}

/** Pixels differing from the background. */
function drawn(picture: Picture): number {
  return Math.round(coverage(picture) * picture.width * picture.height)
}

/** The model drawn and settled, wearing a real skin (almost no checkerboard magenta): the stage and that picture. */
async function firstSkinned(canvasElement: HTMLElement, label: string): Promise<{ stage: StageProbe; first: Picture }> {
  const stage = await findStage(canvasElement)
  await stage.expectModel()
  const first = await stage.settle(() => true, `${label} to settle`)
  await expect(magenta(first) / drawn(first), `checkerboard share with ${label}`).toBeLessThan(0.02)
  return { stage, first }
}

/** Shows `skin`, waits for a settled picture that differs from `previous`, checks it is no checkerboard. */
async function showSkin(stage: StageProbe, previous: Picture, skin: unknown, label: string): Promise<Picture> {
  setStoryArgs({ skin })
  const picture = await stage.settleDrawn((p) => difference(previous, p) > 200, `skin ${label} to show`)
  await expect(magenta(picture) / drawn(picture), `share of checkerboard-magenta pixels with skin ${label}`).toBeLessThan(0.02)
  return picture
}

// ---------------------------------------------------------------------------------------------

/**
 * Ogro with no `skin` prop shows skin 0 of his file, `players/ogro/igdosh.pcx`, found next to
 * `tris.MD2`. The select lists the 13 names written in the file (resolved the same way) and the
 * three PCX skins it does not name (by URL). All decoded from the original PCX files.
 */
const ogroPcxSkinsStory: Story = {
  args: { url: OGRO, animation: 'stand', frame: 0 },
  argTypes: {
    skin: skinSelect(
      OGRO_SKIN_OPTIONS,
      (option) => (ogroSkinNames.includes(option) ? `${fileOf(option)} (named in tris.MD2)` : `${fileOf(option)} (URL)`),
      `The ${ogroSkinNames.length} skin names written in tris.MD2, then PCX files it does not name`,
    ),
    frame: { control: { type: 'range', min: 0, max: ogroFrames - 1, step: 1 } },
  },
  play: async ({ canvasElement }) => {
    const { stage, first: byDefault } = await firstSkinned(canvasElement, 'the default skin')

    // The default is the file's first skin: naming it, or giving its index, shows the same picture.
    setStoryArgs({ skin: ogroSkinNames[0] })
    await expect(difference(byDefault, await stage.settle(() => true, 'skin 0 by name')), 'default vs skin 0 by name').toBe(0)
    setStoryArgs({ skin: 0 })
    await expect(difference(byDefault, await stage.settle(() => true, 'skin 0 by index')), 'default vs skin 0 by index').toBe(0)

    // Every other skin, named in the file or given by URL, shows something else and no checkerboard.
    let previous = byDefault
    for (const option of OGRO_SKIN_OPTIONS.slice(1)) previous = await showSkin(stage, previous, option, fileOf(option))
    const resolved = await useMD2Skin.resolve(OGRO, 'players/ogro/igdosh.pcx')
    await expect(resolved.url).toBe(`${OGRO_DIR}igdosh.pcx`)

    setStoryArgs({ skin: undefined })
    await expectPictureAgain(stage, previous, byDefault, 'the default skin to show again')
  },
}
const ogroPcxSkinsStoryFaces = splitStory(ogroPcxSkinsStory, { frame: undefined, playing: false })
export const OgroPcxSkins: Story = ogroPcxSkinsStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const OgroPcxSkinsCheck: Story = { ...ogroPcxSkinsStoryFaces.check, tags: ['!dev', '!autodocs'] }

/**
 * The PCX decoder and the UVs agree with three.js: Ogro wearing `igdosh.pcx` (decoded into a
 * DataTexture) and wearing three.js's own PNG conversion of it draw the same picture. A control
 * shows the check has teeth: the same pixels uploaded top row first (not flipped) draw another one.
 */
const pcxMatchesPngStory: Story = {
  args: { url: OGRO, animation: 'stand', frame: 0, skin: `${OGRO_DIR}igdosh.pcx` },
  argTypes: { skin: { control: false } },
  parameters: { stage: { camera: [30, 14, 70] } },
  play: async ({ canvasElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const pcx = await stage.settle(() => true, 'the PCX skin to settle')
    const model = drawn(pcx)

    // The control first: the decoded rows uploaded as they are (top row first), same filtering.
    const bytes = new Uint8Array(await (await fetch(`${OGRO_DIR}igdosh.pcx`)).arrayBuffer())
    const image = decodePCX(bytes)
    const unflipped = new DataTexture(image.data, image.width, image.height, RGBAFormat, UnsignedByteType)
    unflipped.colorSpace = SRGBColorSpace
    unflipped.generateMipmaps = true
    unflipped.minFilter = LinearMipmapLinearFilter
    unflipped.magFilter = LinearFilter
    unflipped.needsUpdate = true
    setStoryArgs({ skin: unflipped })
    // Each picture waited for shows the model whole: a frame drawn before a new skin is bound may show none of it.
    const wrong = await stage.settle((p) => difference(pcx, p) > 200 && drawn(p) > model * 0.9, 'the upside-down control to show')
    await expect(difference(pcx, wrong) / model, 'share of model pixels differing with rows not flipped').toBeGreaterThan(0.2)

    // three.js's own PNG conversion, loaded as an image texture (flipY = true).
    const pngUrl = `${OGRO_DIR}png/igdosh.png`
    await useMD2Skin.preload(pngUrl)
    setStoryArgs({ skin: pngUrl })
    const png = await stage.settle((p) => difference(wrong, p) > 200 && drawn(p) > model * 0.9, 'the PNG conversion to show')
    // Identical texels, identical filtering: in Chromium/SwiftShader not one pixel differs.
    await expect(difference(pcx, png), `pixels differing between PCX and PNG (of ${model} drawn)`).toBeLessThanOrEqual(model * 0.001)

    setStoryArgs({ skin: `${OGRO_DIR}igdosh.pcx` })
    await stage.next(4)
    const back = await stage.settle(() => true, 'the PCX skin to show again')
    await expect(difference(pcx, back), 'PCX twice: differing pixels').toBe(0)
    unflipped.dispose()
  },
}
const pcxMatchesPngStoryFaces = splitStory(pcxMatchesPngStory)
export const PcxMatchesPng: Story = pcxMatchesPngStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const PcxMatchesPngCheck: Story = { ...pcxMatchesPngStoryFaces.check, tags: ['!dev', '!autodocs'] }

function RatamahattaScene(props: MD2ModelProps) {
  const args = useLiveArgs(props)
  return (
    <group>
      <MD2Model {...args} url={RATAMAHATTA} />
      {/* No skin prop: weapon.MD2 names "players/Ratamahatta/weapon.pcx", found as weapon.pcx beside it. */}
      <MD2Model {...args} url={RATAMAHATTA_WEAPON} skin={undefined} />
    </group>
  )
}

/**
 * Ratamahatta with his original PCX skins (his file names none, so they are given by URL), and his
 * weapon wearing the skin its own file names, resolved next to it.
 */
const ratamahattaPcxSkinsStory: Story = {
  args: { url: RATAMAHATTA, animation: 'stand', frame: 0, skin: RATAMAHATTA_PCX[0] },
  argTypes: {
    skin: skinSelect(RATAMAHATTA_PCX, fileOf, 'The PCX skins shipped with Ratamahatta'),
    frame: { control: { type: 'range', min: 0, max: ratamahattaFrames - 1, step: 1 } },
  },
  render: (args) => <RatamahattaScene {...args} />,
  play: async ({ canvasElement }) => {
    const { stage, first } = await firstSkinned(canvasElement, 'the first skin')
    const weapon = await useMD2Skin.resolve(RATAMAHATTA_WEAPON, ratamahattaWeaponSkinNames[0]!)
    await expect(weapon.url, `the weapon's skin "${ratamahattaWeaponSkinNames[0]}" resolved next to weapon.MD2`).toBe(
      `${RATAMAHATTA_DIR}weapon.pcx`,
    )
    let previous = first
    for (const url of RATAMAHATTA_PCX.slice(1)) previous = await showSkin(stage, previous, url, fileOf(url))
    setStoryArgs({ skin: RATAMAHATTA_PCX[0] })
    await expectPictureAgain(stage, previous, first, 'the first skin to show again')
  },
}
const ratamahattaPcxSkinsStoryFaces = splitStory(ratamahattaPcxSkinsStory, { frame: undefined, playing: false })
export const RatamahattaPcxSkins: Story = ratamahattaPcxSkinsStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const RatamahattaPcxSkinsCheck: Story = { ...ratamahattaPcxSkinsStoryFaces.check, tags: ['!dev', '!autodocs'] }

/**
 * The UFO:AI bloodspider names its skins `.bloodspider` … `.bloodspider4`: the extension is left
 * open, so `.png`, `.jpg`, `.tga`, `.pcx` are tried next to the model. The first two exist
 * (`bloodspider.jpg`, `bloodspider2.png`); the last two do not, and show the checkerboard (with one
 * console warning). With `files`, the folder's listing made at build time, only names that exist are
 * asked for: no request misses.
 */
const bloodspiderNamedSkinsStory: Story = {
  args: { url: BLOODSPIDER, files: bloodspiderFiles, frame: 0, scale: 1.6, position: [0, 38, 0] },
  // bloodspider3 is not shipped: the checkerboard and its warning are the point.
  parameters: { expected: { messages: ['.bloodspider3'] } },
  argTypes: {
    skin: skinSelect(bloodspiderSkinNames, (name) => `${name} (named in bloodspider.md2)`, 'The skin names written in the file'),
    frame: { control: { type: 'range', min: 0, max: bloodspiderFrames - 1, step: 1 } },
  },
  play: async ({ canvasElement }) => {
    const { stage, first } = await firstSkinned(canvasElement, 'the default skin (.bloodspider)')
    await expect((await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider')).url).toBe(`${BLOODSPIDER_DIR}bloodspider.jpg`)
    await expect((await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider2')).url).toBe(`${BLOODSPIDER_DIR}bloodspider2.png`)

    const second = await showSkin(stage, first, '.bloodspider2', '.bloodspider2')

    setStoryArgs({ skin: '.bloodspider3' })
    const missing = await stage.settleDrawn((p) => difference(second, p) > 200, 'the checkerboard to show')
    await expect(magenta(missing) / drawn(missing), 'share of checkerboard-magenta pixels for .bloodspider3').toBeGreaterThan(0.15)
    await expect((await useMD2Skin.resolve(BLOODSPIDER, '.bloodspider3')).url).toBeUndefined()

    setStoryArgs({ skin: '.bloodspider' })
    const again = await stage.settleDrawn((p) => difference(missing, p) > 200, '.bloodspider to show again')
    await expect(difference(first, again), 'pixels differing from the first picture with the same skin').toBe(0)
  },
}
const bloodspiderNamedSkinsStoryFaces = splitStory(bloodspiderNamedSkinsStory, { frame: undefined, playing: false })
export const BloodspiderNamedSkins: Story = bloodspiderNamedSkinsStoryFaces.visible
/** Test only: drives the props of the story above and checks the pictures. */
export const BloodspiderNamedSkinsCheck: Story = { ...bloodspiderNamedSkinsStoryFaces.check, tags: ['!dev', '!autodocs'] }
