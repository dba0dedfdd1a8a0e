import { Box3, Mesh, MeshLambertMaterial, Object3D, type BufferAttribute, type BufferGeometry, type Texture } from 'three'
import { copyPose, clampPoseFrames, createPose, type MD2Pose } from '../../core/animation/pose.js'
import { MD2AnimationController } from '../../core/animation/MD2AnimationController.js'
import { threeAnimationGroups } from '../../core/format/threeAnimationGroups.js'
import type { MD2Animation, MD2ModelData } from '../../core/format/types.js'
import { isMD2Error, MD2Error } from '../../core/MD2Error.js'
import { warnOnce } from '../../core/warnOnce.js'
import { MD2Loader } from '../loaders/MD2Loader.js'
import { isAbort } from '../loaders/fetchBytes.js'
import { getMissingSkinTexture } from '../loaders/MD2SkinLoader.js'
import { createMD2Geometry, writeMD2Pose } from '../mesh/MD2Geometry.js'
import type { MD2Handedness } from '../mesh/createMD2MorphGeometry.js'
import { loadCharacterSkin } from './loadCharacterSkin.js'

/** What `loadParts` reads: three.js's character config, unchanged. */
export interface MD2CharacterConfig {
  /** Prefix of every URL; skins are looked up under `baseUrl + 'skins/'`. */
  baseUrl: string
  /** The body's MD2 file. */
  body: string
  /** Body skins: PNG or JPEG (the browser decodes them), or Quake II's PCX (and TGA) as they ship. */
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
  /** Milliseconds `loadParts` may take before it is abandoned with `onLoadError` (`loadTimeout`; default 30 000). */
  loadTimeout?: number
}

/** The React loaders' default timeout (`setLoadTimeout`), which a character's load gets unless told otherwise. */
const DEFAULT_LOAD_TIMEOUT = 30_000
/** The most seconds of animation one update plays (see `advance`). */
const MAX_ANIMATION_STEP = 60
/** The longest delay `setTimeout` keeps; a longer timeout means no limit. */
const MAX_TIMER = 2 ** 31 - 1

/** One `loadParts` call: what can abandon it, its timer, and the URLs still loading (named by the timeout). */
interface PartsLoad {
  readonly abort: AbortController
  readonly pending: Set<string>
  timer: ReturnType<typeof setTimeout> | undefined
  failed: boolean
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
 *
 * Careless calls do what three's classes do where that is harmless, and never throw a `TypeError`: a call with
 * an argument that names nothing (an animation, skin or weapon the character does not have, a rate or a time
 * that is not a number) is ignored or shown as missing, with a one-time warning; a load that stalls ends in
 * `onLoadError` after `loadTimeout`; `loadParts` again replaces the parts; `dispose()` frees what it made.
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
  /**
   * Called when a model cannot be loaded (an `MD2Error` naming the URL), and once when the load is still not
   * complete after `loadTimeout` ms (`LOAD_FAILED` naming what had not arrived); `onLoadComplete` is then not called.
   */
  onLoadError: (error: MD2Error) => void = (error) => console.error(error)
  /** Parts and skins still loading. */
  loadCounter = 0
  /**
   * Milliseconds a `loadParts` may take (read when it starts): past it, what is still loading is abandoned
   * (its skins show the checkerboard) and `onLoadError` is called. `Infinity`: no limit. Default 30 000, as
   * the React loaders' (`setLoadTimeout`).
   */
  loadTimeout: number
  /** Plays the body's animations (null until the body is loaded). Its pose is what body and weapon show. */
  controller: MD2AnimationController | null = null
  readonly handedness: MD2Handedness
  /** The class's name, for warnings (three's name for it, kept when a bundler renames classes). */
  protected abstract readonly label: string

  private readonly weaponPose: MD2Pose = createPose()
  /** The load in progress: callbacks of any other (replaced, abandoned, disposed) are ignored. */
  private partsLoad: PartsLoad | null = null
  /** Whether the skins are this character's (loaded by it) or another's (`shareParts`), which only it frees. */
  private ownsSkins = true

  constructor(options: MD2CharacterOptions = {}) {
    const handedness = options.handedness ?? 'library'
    if (handedness !== 'library' && handedness !== 'three') {
      throw new MD2Error('BAD_ARGUMENT', `MD2Character: handedness ${JSON.stringify(handedness)} is not 'library' or 'three'`)
    }
    this.handedness = handedness
    this.loadTimeout = checkedTimeout(options.loadTimeout, 'loadTimeout option')
  }

  /** The animations the character plays, named and grouped as three's classes name them. */
  protected animationList(model: MD2ModelData): MD2Animation[] {
    return threeAnimationGroups(model)
  }

  /** Reads the parts of three's config the subclass needs besides the models and skins. */
  protected readConfig(_config: MD2CharacterConfig): void {}

  /** A part made: shadows as the subclass's three.js counterpart sets them. */
  protected abstract partMade(mesh: MD2CharacterMesh): void

  /** The parts are gone (replaced or disposed): the subclass forgets what it played. */
  protected partsCleared(): void {}

  /**
   * Loads the body, weapons and skins of three's config; `onLoadComplete` is called when all are in. Called
   * again, it replaces the parts: the load still running is abandoned (its callbacks never come) and the
   * parts already made are removed from `root` and freed (skins shared from another character are left alone).
   */
  loadParts(config: MD2CharacterConfig): void {
    checkConfig(config)
    this.clearParts()
    this.readConfig(config)
    const { weapons, skins } = config
    const load: PartsLoad = { abort: new AbortController(), pending: new Set(), timer: undefined, failed: false }
    this.partsLoad = load
    this.ownsSkins = true
    this.loadCounter = weapons.length * 2 + skins.length + 1
    const signal = load.abort.signal
    const settled = (url: string) => () => {
      if (this.partsLoad !== load) return
      load.pending.delete(url)
      this.loadCounter -= 1
      if (this.loadCounter > 0) return
      this.endLoad(load)
      if (!load.failed) this.onLoadComplete()
    }
    const fail = (url: string) => (error: unknown) => {
      if (this.partsLoad !== load || isAbort(error)) return
      load.failed = true
      settled(url)()
      this.onLoadError(isMD2Error(error) ? error : new MD2Error('LOAD_FAILED', String(error), { file: url }))
    }
    const skin = (name: string) => {
      const url = config.baseUrl + 'skins/' + name
      load.pending.add(url)
      return loadCharacterSkin(url, name, signal, settled(url))
    }
    this.skinsBody = skins.map(skin)
    this.skinsWeapon = weapons.map(([, name]) => skin(name))

    const loader = new MD2Loader()
    const bodyUrl = config.baseUrl + config.body
    load.pending.add(bodyUrl)
    loader.loadWith(bodyUrl, { signal }).then((model) => {
      if (this.partsLoad !== load) return
      const mesh = this.makePart(model, this.skinsBody[0])
      // Stand on y = 0: the root is raised by frame 0's lowest point, as three's classes do.
      const box = new Box3().setFromBufferAttribute(mesh.geometry.getAttribute('position') as BufferAttribute)
      this.root.position.y = -this.scale * box.min.y
      this.setBody(mesh)
      settled(bodyUrl)()
    }, fail(bodyUrl))
    weapons.forEach(([file], index) => {
      const url = config.baseUrl + file
      load.pending.add(url)
      loader.loadWith(url, { signal }).then((model) => {
        if (this.partsLoad !== load) return
        const mesh = this.makePart(model, this.skinsWeapon[index])
        mesh.visible = false
        mesh.name = file
        this.weapons[index] = mesh
        this.meshWeapon = mesh
        settled(url)()
      }, fail(url))
    })
    const timeout = checkedTimeout(this.loadTimeout, 'loadTimeout')
    if (timeout <= MAX_TIMER) load.timer = setTimeout(() => this.timedOut(load, timeout), timeout)
  }

  /** The timeout passed with parts still loading: they are abandoned and the load fails. */
  private timedOut(load: PartsLoad, timeout: number): void {
    if (this.partsLoad !== load) return
    const waiting = [...load.pending]
    this.endLoad(load)
    this.onLoadError(
      new MD2Error(
        'LOAD_FAILED',
        `${this.label}.loadParts: no answer within ${timeout} ms (loadTimeout) for ${waiting.join(', ')}; the load was abandoned`,
        { file: waiting[0] },
      ),
    )
  }

  /** Ends a load: its timer stops, what is still loading is abandoned, its callbacks are ignored from now on. */
  private endLoad(load: PartsLoad): void {
    clearTimeout(load.timer)
    if (this.partsLoad === load) this.partsLoad = null
    this.loadCounter = 0
    load.abort.abort()
  }

  /**
   * Removes the parts from `root` and frees what this character made for them: geometry, materials, and
   * the skins it loaded (not those shared from another with `shareParts`, nor the shared missing-skin
   * checkerboard). A load still running is abandoned, without a callback. The character can load again
   * (`loadParts`, `shareParts`); until then every call is ignored as before a load.
   */
  dispose(): void {
    this.clearParts()
  }

  protected clearParts(): void {
    if (this.partsLoad) this.endLoad(this.partsLoad)
    for (const mesh of this.meshes) {
      this.root.remove(mesh)
      mesh.geometry.dispose()
      mesh.materialTexture.dispose()
      mesh.materialWireframe.dispose()
    }
    if (this.ownsSkins) for (const skin of [...this.skinsBody, ...this.skinsWeapon]) skin.dispose()
    this.meshes = []
    this.weapons = []
    this.skinsBody = []
    this.skinsWeapon = []
    this.meshBody = null
    this.meshWeapon = null
    this.controller = null
    this.currentSkin = undefined
    this.ownsSkins = true
    this.partsCleared()
  }

  /** For `shareParts`: this character's parts are replaced by ones drawing `original`'s models and skins. */
  protected takeSharedSkins(original: MD2CharacterParts): void {
    this.clearParts()
    this.ownsSkins = false
    this.skinsBody = original.skinsBody
    this.skinsWeapon = original.skinsWeapon
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

  /** The body's animation named `name` exactly (as three's classes find clips), or undefined. Allocates nothing. */
  protected findClip(name: unknown): MD2Animation | undefined {
    if (typeof name !== 'string' || !this.meshBody) return undefined
    for (const animation of this.meshBody.geometry.animations) if (animation.name === name) return animation
    return undefined
  }

  /** A one-time warning that `setAnimation(name)` is ignored: the character has no such animation. */
  protected unknownClip(name: unknown): void {
    const caller = this.label
    const names = this.meshBody?.geometry.animations.map((animation) => animation.name).join(', ')
    warnOnce(
      `${caller}:animation:${String(name)}`,
      `${caller}.setAnimation(${describe(name)}): no such animation, ignored (as three's class does). Available: ${names}`,
    )
  }

  /** A one-time warning when `what` is not a finite number at least 0 (then false: the call is ignored). */
  protected checkTime(what: string, value: unknown): boolean {
    const caller = this.label
    if (typeof value === 'number' && value >= 0 && value < Infinity) return true
    warnOnce(`${caller}:${what}:${String(value)}`, `${caller}.${what}(${describe(value)}): not a finite number ≥ 0, ignored`)
    return false
  }

  setWireframe(wireframeEnabled: boolean): void {
    for (const mesh of [this.meshBody, this.meshWeapon]) {
      if (mesh) mesh.material = wireframeEnabled ? mesh.materialWireframe : mesh.materialTexture
    }
  }

  /**
   * Shows body skin `index` (as three's, not while in wireframe). An index with no skin shows the missing-skin
   * checkerboard, as a skin that failed to load does, with a one-time warning (three's shows no texture, white).
   */
  setSkin(index: number): void {
    const body = this.meshBody
    if (!body || body.material.wireframe) return
    let skin = this.skinsBody[index]
    if (!skin) {
      warnOnce(
        `${this.label}:setSkin:${String(index)}`,
        `${this.label}.setSkin(${describe(index)}): there are ${this.skinsBody.length} skins (0–${this.skinsBody.length - 1}); showing the missing-skin checkerboard`,
      )
      skin = getMissingSkinTexture()
    }
    if (body.material.map !== skin) {
      body.material.map = skin
      body.material.needsUpdate = true
    }
    this.currentSkin = index
  }

  /**
   * Shows weapon `index` (hides the others), in the body's pose. An index with no weapon hides them all, as
   * three's does, with a one-time warning.
   */
  setWeapon(index: number): void {
    for (const weapon of this.weapons) if (weapon) weapon.visible = false
    const weapon = this.weapons[index]
    if (weapon) {
      weapon.visible = true
      this.meshWeapon = weapon
      this.drawPose()
    } else if (this.weapons.length > 0) {
      warnOnce(
        `${this.label}:setWeapon:${String(index)}`,
        `${this.label}.setWeapon(${describe(index)}): there are ${this.weapons.length} weapons (0–${this.weapons.length - 1}); every weapon hidden, as three's class does`,
      )
    }
  }

  /**
   * Moves the controller on by `seconds` of animation, at most a minute's: a step of more keyframes than a
   * double counts one by one (a tiny `MD2Character` rate, a huge `MD2CharacterComplex` one) would never end.
   */
  protected advance(seconds: number): void {
    if (this.controller?.update(seconds > MAX_ANIMATION_STEP ? MAX_ANIMATION_STEP : seconds)) this.drawPose()
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

/** A value as a message quotes it: strings quoted, everything else as JavaScript prints it. */
function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

/** A timeout: a positive number of ms or Infinity; anything else warns once and gives the default. */
function checkedTimeout(ms: unknown, what: string): number {
  if (ms === undefined) return DEFAULT_LOAD_TIMEOUT
  if (typeof ms === 'number' && ms > 0) return ms
  warnOnce(
    `character-timeout:${String(ms)}`,
    `MD2Character ${what}: ${describe(ms)} is not a timeout (a positive number of milliseconds or Infinity); using ${DEFAULT_LOAD_TIMEOUT} ms`,
  )
  return DEFAULT_LOAD_TIMEOUT
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
  if (config.animations !== undefined && (typeof config.animations !== 'object' || config.animations === null)) {
    throw bad('animations', 'an object of behaviour → animation name', config.animations)
  }
  for (const field of ['walkSpeed', 'crouchSpeed'] as const) {
    const speed = config[field]
    if (speed !== undefined && !(typeof speed === 'number' && speed >= 0 && speed < Infinity)) throw bad(field, 'a finite speed ≥ 0', speed)
  }
}
