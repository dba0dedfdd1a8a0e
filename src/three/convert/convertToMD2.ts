import type { AnimationClip, Object3D } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { QUAKE2_FPS } from '../../core/format/spec.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { writeMD2 } from '../../core/format/writeMD2.js'
import type { DecodedImage } from '../../core/images/decodedImage.js'
import { drawModel } from '../../core/images/drawModel.js'
import { encodePCX } from '../../core/images/encodePCX.js'
import { encodeTGA } from '../../core/images/encodeTGA.js'
import { encodePNG } from '../../core/images/png.js'
import { resampleImage } from '../../core/images/resampleImage.js'
import { parseMD2 } from '../../core/format/parseMD2.js'
import { checkConvertArguments } from './bakeChecks.js'
import { bakeMD2, type BakeMD2Options, type BakedMD2 } from './bakeMD2.js'
import { bakePlayerMD2, standInWeapon as standIn, type BakedPlayer, type PlayerAnimationName } from './bakePlayer.js'
import { skinImageOf } from './skinImage.js'

/** Quake II's player box (`PutClientInServer`: mins -16, -16, -24, maxs 16, 16, 32): a player's height and feet. */
export const PLAYER_HEIGHT = 56
export const PLAYER_FEET: readonly [number, number, number] = [0, 0, -24]

/** The first line of the animation tables a conversion writes: how a rerun knows one of its own. */
export const ANIMATION_TABLE_HEADER = '// name first last fps (react-three-md2 convert)'

export interface ConvertToMD2Options extends Omit<BakeMD2Options, 'plan' | 'bakeSkin' | 'skins' | 'fitSkin'> {
  /** The skin's name stored in the model (`players/hero/hero.pcx`, `models/monsters/fox/fox.pcx`, `fox.pcx`). */
  skinName: string
  /** How the skin is written: `pcx` (8-bit, Quake II's palette; default), `tga` (full colour) or `png`. */
  skinFormat?: 'pcx' | 'tga' | 'png'
  /** A PCX skin's colours diffused (Floyd–Steinberg) rather than each mapped to its nearest. */
  dither?: boolean
  /** A skin of your own, painted on the source's texture coordinates (kept as they are); no skin is baked. */
  skin?: DecodedImage
  /**
   * A Quake II player (the engine's 198-frame table, `bakePlayerMD2`) with this clip for each animation named, or
   * `true` to match clips by name; and its HUD icon. `fps` and `clips` are then not taken. Placed in the game's
   * player box unless told otherwise: stand01 `PLAYER_HEIGHT` tall (unless `scale` or `height`), its feet at
   * `PLAYER_FEET` (unless `origin`).
   */
  player?: true | Partial<Record<PlayerAnimationName, string>>
  /**
   * A player's weapon: these meshes (by their name or an ancestor's) baked apart, on the player's frames, into
   * `weapon` (Quake II's `weapon.md2`, drawn with the body's frames), the body without them; its skin named
   * `weaponSkinName`. Without it a player gets a stand-in (`standInWeapon`: the client refuses a player with no
   * `weapon.md2`).
   */
  weapon?: { meshes: readonly string[]; skinName: string }
}

/** A conversion's result: the model and the files that go with it, as bytes. */
export interface ConvertedMD2 {
  model: MD2ModelData
  /** The model as an `.md2` file. */
  data: Uint8Array
  /** The skin, fitted to what Quake II loads, as written (`data`) and as RGBA; none when nothing gives one. */
  skin?: { image: DecodedImage; data: Uint8Array; format: 'pcx' | 'tga' | 'png' }
  /** A player's HUD icon: the player from the front, 32 × 32, an 8-bit PCX in Quake II's palette. */
  icon?: Uint8Array
  /** The animation table (`name first last fps` lines) when the rate is not Quake II's: MD2 keeps none. */
  table?: string
  /** The bake's account: which frames each clip became, what `simplify` did, a player's animations filled. */
  baked: BakedMD2 | BakedPlayer
  /** A player's weapon (`options.weapon`, else a stand-in: `standIn`): its model, file and skin, as the body's. */
  weapon?: Pick<ConvertedMD2, 'model' | 'data' | 'skin'> & { standIn?: true }
}

/**
 * A scene and its clips converted to what a Quake II mod ships: the model baked (`bakeMD2`, or `bakePlayerMD2`
 * for a player), every material baked into one skin fitted to the sizes Quake II loads (or `skin`, yours,
 * as given), written as `skinFormat`, a player's HUD icon, and the animation table another rate needs. What
 * `react-three-md2 convert` writes and the Viewer's bake offers, from one function. Throws as `bakeMD2` does.
 */
export function convertToMD2(scene: Object3D, clips: readonly AnimationClip[], options: ConvertToMD2Options): ConvertedMD2 {
  checkConvertArguments(scene, clips, options)
  const { skinName, skinFormat = 'pcx', dither = false, skin: given, player: playerClips, weapon: weaponOf, ...rest } = options
  if (weaponOf && !playerClips)
    throw new MD2Error('BAD_ARGUMENT', 'weapon: a weapon is baked with a player (player), on its frames', { section: 'options' })
  const common = {
    ...rest,
    ...(given ? { skinWidth: given.width, skinHeight: given.height } : {}),
    skins: [skinName],
    bakeSkin: given === undefined,
    fitSkin: true,
  }
  // A player in the game's box: stand01 56 tall, its feet at z = -24 (PutClientInServer's mins and maxs).
  const placed = {
    ...(rest.scale === undefined && rest.height === undefined ? { height: PLAYER_HEIGHT } : {}),
    ...(rest.origin === undefined && rest.offset === undefined ? { origin: PLAYER_FEET } : {}),
  }
  const playerOptions = {
    ...withoutClips(common),
    ...placed,
    ...(playerClips === true || !playerClips ? {} : { clips: playerClips }),
  }
  const baked: BakedMD2 | BakedPlayer = playerClips
    ? bakePlayerMD2(scene, clips, { ...playerOptions, ...(weaponOf ? { excludeMeshes: weaponOf.meshes } : {}) })
    : bakeMD2(scene, clips, common)
  const body = written(baked, given, skinFormat, dither)
  const { data } = body
  const image = body.skin?.image
  // The HUD's icon: the player seen from the front in its first stand frame, 32 × 32 as the game draws it.
  const icon = playerClips ? encodePCX(drawModel(parseMD2(data), image, { width: 32, height: 32 })) : undefined
  // The weapon's own materials make its skin, whatever skin the body was given.
  // The weapon placed as the body is: the body's scale and offset, not worked out again from the weapon alone.
  const { skinWidth: _width, skinHeight: _height, height: _tall, origin: _feet, scale: _scale, ...unsized } = playerOptions
  const { height: _tall2, origin: _feet2, scale: _scale2, ...unplaced } = playerOptions
  const weapon = weaponOf
    ? written(
        bakePlayerMD2(scene, clips, {
          ...(given ? unsized : unplaced),
          scale: baked.placement.scale,
          offset: baked.placement.offset,
          bakeSkin: true,
          meshes: weaponOf.meshes,
          skins: [weaponOf.skinName],
        }),
        undefined,
        skinFormat,
        dither,
      )
    : undefined
  const fps = options.fps ?? QUAKE2_FPS
  const table =
    !playerClips && fps !== QUAKE2_FPS && baked.model.animations.length > 0
      ? `${ANIMATION_TABLE_HEADER}\n${baked.model.animations.map(({ name, start, end }) => `${name} ${start} ${end} ${fps}`).join('\n')}\n`
      : undefined
  return {
    model: baked.model,
    data,
    baked,
    ...(body.skin ? { skin: body.skin } : {}),
    ...(icon ? { icon } : {}),
    ...(table ? { table } : {}),
    ...(weapon ? { weapon } : playerClips ? { weapon: standInOf(baked.model) } : {}),
  }
}

/** A player's stand-in weapon (`standInWeapon`), on the body's frames, naming the body's skin (written or none). */
function standInOf(body: MD2ModelData): NonNullable<ConvertedMD2['weapon']> {
  const model = standIn(body)
  return { model, data: writeMD2(model), standIn: true }
}

/** The options less `clips` and `fps`, which a player's table sets. */
function withoutClips<T extends { clips?: unknown; fps?: unknown }>(options: T): Omit<T, 'clips' | 'fps'> {
  const { clips: _clips, fps: _fps, ...rest } = options
  return rest
}

/**
 * A bake's model as written: its skin (`given`, else the baked one, else its one map's pixels resampled to the
 * size its st are measured on), encoded as `format`; a model with no skin names none.
 */
function written(
  baked: BakedMD2,
  given: DecodedImage | undefined,
  format: 'pcx' | 'tga' | 'png',
  dither: boolean,
): Pick<ConvertedMD2, 'model' | 'data' | 'skin'> {
  let image = given ?? baked.skinImage
  if (!image && baked.skinTexture) {
    try {
      image = skinImageOf(baked.skinTexture)
    } catch {
      // A map with no pixels here (not loaded, not decoded): the model names no skin.
    }
  }
  // The one map as it is, its st measured on the size Quake II loads it at (`fitSkin`): resampled to that size.
  const { skinWidth, skinHeight } = baked.model.header
  if (image && !given && (image.width !== skinWidth || image.height !== skinHeight)) image = resampleImage(image, skinWidth, skinHeight)
  if (!image) baked.model.skins.splice(0)
  const data = writeMD2(baked.model)
  const skin = image
    ? { image, format, data: format === 'pcx' ? encodePCX(image, { dither }) : format === 'tga' ? encodeTGA(image) : encodePNG(image) }
    : undefined
  return { model: baked.model, data, ...(skin ? { skin } : {}) }
}
