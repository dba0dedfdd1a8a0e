import type { ArgTypes } from '@storybook/react-vite'
import { MD2Model, type MD2ModelProps } from '../../src/index'
import { modelArgTypes, type ModelInfo, PLAYBACK_ARGS } from './controls'
import { useLiveArgs } from './live-args'
import { setStoryArgs } from './live-args'
import { coverage, difference, findStage, type Picture } from './pixels'

export interface PlayerSceneProps extends MD2ModelProps {
  /** The weapon model held in the hand (`weapon.md2`), synced to the body. */
  weapon?: string
  /** The weapon's skin (default: the one its file names, looked for beside it). */
  weaponSkin?: string
  /** Show the weapon. */
  showWeapon?: boolean
}

/**
 * A Quake II player: the body, and its weapon as a synced child (`<MD2Model sync>`): the weapon shows
 * the body's frames whatever its own props, and finds its own skin (the one its file names) next to it.
 */
export function PlayerScene({ weapon, weaponSkin, showWeapon = true, children, ...props }: PlayerSceneProps) {
  const args = useLiveArgs(props)
  return (
    <MD2Model {...args}>
      {weapon && showWeapon && <MD2Model url={weapon} skin={weaponSkin} sync />}
      {children}
    </MD2Model>
  )
}

/** Controls of a player story: the body's animations and frames, and the skins beside it. */
export function playerArgTypes(info: ModelInfo, skins: Record<string, string>): ArgTypes {
  return { ...modelArgTypes(info, skins), weapon: { control: false }, weaponSkin: { control: false }, showWeapon: { control: 'boolean' } }
}

/** Share (0–1) of drawn pixels that are near white: an untextured Lambert model is mostly white-grey. */
export function whiteShare(picture: Picture): number {
  const { data } = picture
  let drawn = 0
  let white = 0
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i]!,
      g = data[i + 1]!,
      b = data[i + 2]!
    const background = Math.abs(r - 0x1d) < 8 && Math.abs(g - 0x27) < 8 && Math.abs(b - 0x33) < 8
    if (background) continue
    drawn++
    if (r > 200 && g > 200 && b > 200) white++
  }
  return drawn === 0 ? 0 : white / drawn
}

/** The shared check of a visible player story: drawn, skinned (not plain white), animated. */
export async function expectSkinnedPlayer(canvasElement: HTMLElement): Promise<void> {
  const stage = await findStage(canvasElement)
  await stage.expectModel()
  const picture = await stage.until((p) => coverage(p) > 0.01 && whiteShare(p) < 0.2, 'a skinned (not white) model')
  if (whiteShare(picture) >= 0.2) throw new Error('the model is drawn white: no skin')
  await stage.expectAnimated()
}

/**
 * The args of a bundled player's story: its model and weapon under /models/quake2/<folder>/, the first
 * skin beside it, the weapon's own skin file as shipped (its case may differ from the name inside the
 * model), Quake II's 10 keyframes a second.
 */
export function playerArgs(
  folder: string,
  skins: Record<string, string>,
  weaponSkins: Record<string, string>,
  animation: string,
): PlayerSceneProps {
  return {
    url: `/models/quake2/${folder}/tris.md2`,
    weapon: `/models/quake2/${folder}/weapon.md2`,
    weaponSkin: Object.values(weaponSkins)[0],
    showWeapon: true,
    skin: Object.values(skins)[0],
    animation,
    ...PLAYBACK_ARGS,
  }
}

/** A test-only play function: paused, the last skin beside the model changes the picture. */
export function skinSwitchPlay(skins: Record<string, string>) {
  return async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const stage = await findStage(canvasElement)
    await stage.expectModel()
    const first = await stage.settle(() => true, 'the first skin to settle')
    setStoryArgs({ skin: Object.values(skins).at(-1) })
    await stage.settleDrawn((p) => difference(first, p) > 200, 'another skin to show')
  }
}

/** What a player folder's stories share: args and controls from the files, and two play functions. */
export function playerStories(
  folder: string,
  info: ModelInfo,
  skins: Record<string, string>,
  weaponSkins: Record<string, string>,
  animation: string,
) {
  const args = playerArgs(folder, skins, weaponSkins, animation)
  return {
    base: { args, argTypes: playerArgTypes(info, skins) },
    /** Every animation of the file in the select, every skin beside it in the other. */
    playing: { play: async ({ canvasElement }: { canvasElement: HTMLElement }) => expectSkinnedPlayer(canvasElement) },
    /** Paused, another skin changes the picture and is skinned too. */
    skinSwitch: { args: { ...args, playing: false }, play: skinSwitchPlay(skins) },
  }
}
