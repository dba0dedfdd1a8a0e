import {
  Box3,
  DataTexture,
  Mesh,
  MeshLambertMaterial,
  Object3D,
  SRGBColorSpace,
  TextureLoader,
  UVMapping,
  type BufferAttribute,
  type BufferGeometry,
  type Texture,
} from 'three'
import { copyPose, clampPoseFrames, createPose, type MD2Pose } from '../../core/animation/pose.js'
import { MD2AnimationController } from '../../core/animation/MD2AnimationController.js'
import { threeAnimationGroups } from '../../core/format/threeAnimationGroups.js'
import type { MD2Animation, MD2ModelData } from '../../core/format/types.js'
import { isMD2Error, MD2Error } from '../../core/MD2Error.js'
import { warnOnce } from '../../core/warnOnce.js'
import { MD2Loader } from '../loaders/MD2Loader.js'
import { MD2SkinLoader, getMissingSkinTexture, skinKindOf } from '../loaders/MD2SkinLoader.js'
import { createMD2Geometry, writeMD2Pose } from '../mesh/MD2Geometry.js'
import type { MD2Handedness } from '../mesh/createMD2MorphGeometry.js'

/** What `loadParts` reads: three.js's character config, unchanged. */
export interface MD2CharacterConfig {
  /** Prefix of every URL; skins are looked up under `baseUrl + 'skins/'`. */
  baseUrl: string
  /** The body's MD2 file. */
  body: string
  /** Body skins: PNG or JPEG as three loads them, or Quake II's PCX (and TGA) as they ship. */
  skins: string[]
  /** Weapons as `[model, skin]` pairs. */
  weapons: [model: string, skin: string][]
  /** `MD2CharacterComplex`: which animation plays for each behaviour. */
  animations?: MD2CharacterAnimations
  /** `MD2CharacterComplex`: top speeds standing and crouched. */
  walkSpeed?: number
  crouchSpeed?: number
}

/** `MD2CharacterComplex`'s behaviours and the animation each plays (three's config keys). */
export interface MD2CharacterAnimations {
  move?: string
  idle?: string
  jump?: string
  attack?: string
  crouchMove?: string
  crouchIdle?: string
  crouchAttack?: string
  [behaviour: string]: string | undefined
}

export interface MD2CharacterOptions {
  /**
   * `'library'` (default) draws the model as Quake II does; `'three'` mirrors it as three's `MD2Loader` does
   * (the weapon in the other hand), for a scene that must look as it did on three's classes.
   */
  handedness?: MD2Handedness
}

/** A body or weapon mesh: three's part meshes carry both materials, and here the model they draw. */
export class MD2CharacterMesh extends Mesh<BufferGeometry & { animations: MD2Animation[] }, MeshLambertMaterial> {
  readonly materialTexture: MeshLambertMaterial
  readonly materialWireframe: MeshLambertMaterial
  /** The parsed model the mesh draws (shared by every character made with `shareParts`). */
  readonly model: MD2ModelData

  constructor(model: MD2ModelData, animations: MD2Animation[], skin: Texture | undefined) {
    // Three's GUI builds its animation menu from `geometry.animations` by name.
    const geometry = Object.assign(createMD2Geometry(model), { animations })
    const materialTexture = new MeshLambertMaterial({ color: 0xffffff, wireframe: false, map: skin ?? null })
    super(geometry, materialTexture)
    this.materialTexture = materialTexture
    this.materialWireframe = new MeshLambertMaterial({ color: 0xffaa00, wireframe: true })
    this.model = model
  }
}

/**
 * What `MD2Character` and `MD2CharacterComplex` share: three's fields, `loadParts` with three's config, skins,
 * weapons and wireframe, on the library's parts underneath (`MD2Loader`, `MD2SkinLoader`, one
 * `MD2AnimationController` per character, `writeMD2Pose` for the body and, from the body's pose, the weapon).
 */
export abstract class MD2CharacterParts {
  /** The meshes' scale, read when parts are made (set it before `loadParts` or `shareParts`). */
  scale = 1
  /** Keyframes per second (`MD2CharacterComplex` plays at this rate; `MD2Character`, as three's, at the model's 10). */
  animationFPS = 6
  /** What to add to the scene. */
  readonly root = new Object3D()
  meshBody: MD2CharacterMesh | null = null
  /** The weapon that shows and moves with the body (the last loaded until `setWeapon`). */
  meshWeapon: MD2CharacterMesh | null = null
  skinsBody: Texture[] = []
  skinsWeapon: Texture[] = []
  weapons: MD2CharacterMesh[] = []
  /** Every part made (body and weapons). */
  meshes: MD2CharacterMesh[] = []
  currentSkin: number | undefined = undefined
  /** Called once every model and skin has loaded (a skin that fails shows the missing-skin checkerboard, with a warning). */
  onLoadComplete: () => void = () => {}
  /** Called when a model cannot be loaded (an `MD2Error` naming the URL); `onLoadComplete` is then not called. */
  onLoadError: (error: MD2Error) => void = (error) => console.error(error)
  /** Parts and skins still loading. */
  loadCounter = 0
  /** Plays the body's animations (null until the body is loaded). Its pose is what body and weapon show. */
  controller: MD2AnimationController | null = null
  readonly handedness: MD2Handedness

  private readonly weaponPose: MD2Pose = createPose()

  constructor(options: MD2CharacterOptions = {}) {
    const handedness = options.handedness ?? 'library'
    if (handedness !== 'library' && handedness !== 'three') {
      throw new MD2Error('BAD_ARGUMENT', `MD2Character: handedness ${JSON.stringify(handedness)} is not 'library' or 'three'`)
    }
    this.handedness = handedness
  }

  /** The animations the character plays, named and grouped as three's classes name them. */
  protected animationList(model: MD2ModelData): MD2Animation[] {
    return threeAnimationGroups(model)
  }

  /** Reads the parts of three's config the subclass needs besides the models and skins. */
  protected readConfig(_config: MD2CharacterConfig): void {}

  /** A part made: shadows as the subclass's three.js counterpart sets them. */
  protected abstract partMade(mesh: MD2CharacterMesh): void

  /** Loads the body, weapons and skins of three's config; `onLoadComplete` is called when all are in. */
  loadParts(config: MD2CharacterConfig): void {
    checkConfig(config)
    this.readConfig(config)
    const { weapons, skins } = config
    this.loadCounter = weapons.length * 2 + skins.length + 1
    let failed = false
    const loaded = () => {
      this.loadCounter -= 1
      if (this.loadCounter === 0 && !failed) this.onLoadComplete()
    }
    const fail = (error: unknown) => {
      failed = true
      this.onLoadError(isMD2Error(error) ? error : new MD2Error('LOAD_FAILED', String(error)))
    }
    const skinsUrl = config.baseUrl + 'skins/'
    this.skinsBody = skins.map((name) => loadSkin(skinsUrl, name, loaded))
    this.skinsWeapon = weapons.map(([, skin]) => loadSkin(skinsUrl, skin, loaded))

    const loader = new MD2Loader()
    loader.load(
      config.baseUrl + config.body,
      (model) => {
        const mesh = this.makePart(model, this.skinsBody[0])
        // Stand on y = 0: the root is raised by frame 0's lowest point, as three's classes do.
        const box = new Box3().setFromBufferAttribute(mesh.geometry.getAttribute('position') as BufferAttribute)
        this.root.position.y = -this.scale * box.min.y
        this.setBody(mesh)
        loaded()
      },
      undefined,
      fail,
    )
    weapons.forEach(([file], index) => {
      loader.load(
        config.baseUrl + file,
        (model) => {
          const mesh = this.makePart(model, this.skinsWeapon[index])
          mesh.visible = false
          mesh.name = file
          this.weapons[index] = mesh
          this.meshWeapon = mesh
          loaded()
        },
        undefined,
        fail,
      )
    })
  }

  protected makePart(model: MD2ModelData, skin: Texture | undefined): MD2CharacterMesh {
    const mesh = new MD2CharacterMesh(model, this.animationList(model), skin)
    // The library's Y-up model faces +Z, where three's classes turn theirs; three's handedness is its mirror image.
    mesh.scale.set(this.handedness === 'three' ? -this.scale : this.scale, this.scale, this.scale)
    this.partMade(mesh)
    this.root.add(mesh)
    this.meshes.push(mesh)
    return mesh
  }

  protected setBody(mesh: MD2CharacterMesh): void {
    this.meshBody = mesh
    this.controller = new MD2AnimationController(mesh.model, mesh.geometry.animations)
  }

  setWireframe(wireframeEnabled: boolean): void {
    for (const mesh of [this.meshBody, this.meshWeapon]) {
      if (mesh) mesh.material = wireframeEnabled ? mesh.materialWireframe : mesh.materialTexture
    }
  }

  /** Shows body skin `index` (as three's, not while in wireframe). */
  setSkin(index: number): void {
    if (this.meshBody && !this.meshBody.material.wireframe) {
      this.meshBody.material.map = this.skinsBody[index] ?? null
      this.meshBody.material.needsUpdate = true
      this.currentSkin = index
    }
  }

  /** Shows weapon `index` (hides the others), in the body's pose. */
  setWeapon(index: number): void {
    for (const weapon of this.weapons) weapon.visible = false
    const weapon = this.weapons[index]
    if (weapon) {
      weapon.visible = true
      this.meshWeapon = weapon
      this.drawPose()
    }
  }

  /** Writes the controller's pose into the body and, clamped to its frames, the weapon. Allocates nothing. */
  protected drawPose(): void {
    const controller = this.controller
    if (!controller || !this.meshBody) return
    writeMD2Pose(this.meshBody.geometry, controller.pose)
    const weapon = this.meshWeapon
    if (weapon) writeMD2Pose(weapon.geometry, clampPoseFrames(copyPose(this.weaponPose, controller.pose), weapon.model))
  }
}

/** Three's config shape, or an `MD2Error` naming the field that is not. */
function checkConfig(config: MD2CharacterConfig): void {
  const isText = (value: unknown) => typeof value === 'string'
  const bad = (field: string, wanted: string, value: unknown) =>
    new MD2Error('BAD_ARGUMENT', `MD2Character.loadParts: config.${field} is ${JSON.stringify(value) ?? String(value)}, not ${wanted}`)
  if (typeof config !== 'object' || config === null)
    throw new MD2Error('BAD_ARGUMENT', `MD2Character.loadParts: the config is ${String(config)}, not an object`)
  if (!isText(config.baseUrl)) throw bad('baseUrl', 'a URL prefix (a string)', config.baseUrl)
  if (!isText(config.body)) throw bad('body', "the body's file name", config.body)
  if (!Array.isArray(config.skins) || !config.skins.every(isText)) throw bad('skins', 'an array of file names', config.skins)
  if (!Array.isArray(config.weapons) || !config.weapons.every((pair) => Array.isArray(pair) && isText(pair[0]) && isText(pair[1]))) {
    throw bad('weapons', 'an array of [model, skin] file names', config.weapons)
  }
}

/**
 * A skin as three's classes hold it: a texture returned at once and filled when loaded. PNG and JPEG go through
 * three's `TextureLoader` as three's do; PCX and TGA are decoded by `MD2SkinLoader` into a texture copied into
 * the one returned.
 */
function loadSkin(baseUrl: string, name: string, loaded: () => void): Texture {
  const url = baseUrl + name
  const missing = (error: unknown) => {
    warnOnce(
      `character-skin:${url}`,
      `MD2Character: skin ${url} could not be loaded (${String((error as Error)?.message ?? error)}); showing the missing-skin checkerboard`,
    )
  }
  if (skinKindOf(url) === 'image') {
    const texture = new TextureLoader().load(url, loaded, undefined, (error) => {
      // An image texture cannot take the checkerboard's data: it stays empty.
      missing(error)
      loaded()
    })
    texture.mapping = UVMapping
    texture.colorSpace = SRGBColorSpace
    texture.name = name
    return texture
  }
  const texture = new DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1)
  texture.name = name
  const fill = (source: Texture) => {
    texture.copy(source as DataTexture)
    texture.name = name
    loaded()
  }
  new MD2SkinLoader().load(url, fill, undefined, (error) => {
    missing(error)
    fill(getMissingSkinTexture())
  })
  return texture
}
