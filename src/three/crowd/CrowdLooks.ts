import { Color, SRGBColorSpace, type Object3D } from 'three'
import type { CrowdClock } from '../../core/animation/CrowdClock.js'
import {
  GLOW_AMPLITUDE,
  GLOW_RATE,
  effectiveShadelight,
  shadowVector,
  shellColor,
  type Quake2LightFlags,
  type ShellSpec,
} from '../../core/lighting/quake2Light.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { LIGHT } from './gpu/rowLayout.js'
import { createMD2ShadowMaterial } from '../materials/shadowMaterial.js'
import { createMD2ShellMaterial } from '../materials/shellMaterial.js'
import { CrowdLayer } from './CrowdLayer.js'
import type { CrowdInstances } from './gpu/CrowdInstances.js'
import type { CrowdRenderer } from './gpu/CrowdRenderer.js'
import { drawWithGpuFrames, type MD2GpuFrames } from './gpu/gpuFrames.js'
import type { MD2CrowdOptions } from './gpu/MD2CrowdOptions.js'

/** An instance's power-up shells (`'red'`, `['red', 'blue']`, an RGB colour), or none (`null`, `[]`). */
export type CrowdShell = ShellSpec | readonly ShellSpec[] | null

/** The crowd's lighting, as `MD2CrowdOptions` and `setLighting` give it. */
export type CrowdLighting = Pick<MD2CrowdOptions, 'shadelight' | 'minlight' | 'fullbright' | 'glow'>

/** The flags a row's light is written with: the glow pulses in the shader (`md2Glow`), the rows stay as written. */
type SteadyFlags = Pick<Quake2LightFlags, 'minlight' | 'fullbright'>

/**
 * What each instance of a crowd wears and how it is lit: its power-up shells and its blob shadow, each
 * kind drawn by one layer (`CrowdLayer`) over the instances that have it, and its Quake II light: each
 * instance's shadelight (after minlight, fullbright) written into its row when set (`writeLight`, a row told
 * something), the glow's pulse a uniform moved on each frame, the light table's row worked out by the shader from
 * the instance's world yaw. A follower's instances wear their leader's instances' shells (after their own) and
 * shadows too.
 */
export class CrowdLooks {
  /** The blob shadows of the instances that have one (one draw; hidden until one does). */
  readonly shadow: CrowdLayer
  /** The power-up shells of the instances that have one (one draw; hidden until one does). */
  readonly shell: CrowdLayer
  /** World height of the floor blob shadows lie on (`undefined`: under each instance's lowest point in any frame). */
  get shadowFloor(): number | undefined {
    return this.floor
  }

  /** Every shadow's stored row is written again with the new floor. */
  set shadowFloor(floor: number | undefined) {
    if (floor === this.floor) return
    this.floor = floor
    if (this.shadow?.data) this.clock.changeAll(this.instances.size)
  }

  private floor: number | undefined
  /** The leader's looks, worn too by a follower's instances (set by `follow`). */
  leader: CrowdLooks | undefined
  /** Per instance: its shell's colour (linear RGB) and whether it has one; whether it has a blob shadow. */
  private readonly shellColors: Float32Array
  private readonly shelled: Uint8Array
  private readonly shadowed: Uint8Array
  /** Per instance: the light at its feet (RGB, 0–1 and over). */
  private readonly shade: Float32Array
  private steady: SteadyFlags = {}
  private glow = false
  /** Seconds the crowd has run, for the glow's pulse. */
  private readonly elapsed = { seconds: 0 }
  /** Lit as Quake II lit it: a change of light marks the instances' rows to be written again. */
  private readonly lit: boolean
  private readonly clock: CrowdClock
  private readonly lightIn = new Float64Array(3)
  /** The shadow's parameters (`shadowVector`'s), reused. */
  private readonly shadowParameters = new Float64Array(4)
  /** Instances in use when the layers' stored rows were last written. */
  private storedSize = 0
  /** The crowd's world matrix when its shadows' stored rows were written. */
  private readonly placedAt = new Float64Array(16)
  private readonly lightOut = new Float64Array(3)
  /** Scratch: an instance's origin's world height and its upward scale (`CrowdInstances.writeUpright`). */
  private readonly upright = new Float64Array(2)
  /** The crowd's own `shell` and `shadow`, which an instance set to `undefined` goes back to. */
  private readonly defaults: Pick<MD2CrowdOptions, 'shell' | 'shadow'>
  /** The model's lowest point in any frame, in its units (from the all-frames box). */
  private readonly lowest: number
  private readonly instances: CrowdInstances
  /** The crowd: its world matrix. */
  private readonly mesh: Object3D
  private readonly renderer: CrowdRenderer

  constructor(
    crowd: {
      mesh: Object3D
      model: MD2ModelData
      instances: CrowdInstances
      clock: CrowdClock
      frames: MD2GpuFrames
      renderer: CrowdRenderer
    },
    options: CrowdLighting & Pick<MD2CrowdOptions, 'shell' | 'shadow' | 'shadowFloor' | 'lighting'>,
  ) {
    const { instances, frames, renderer } = crowd
    const name = crowd.model.name ?? 'md2'
    const limit = instances.capacity
    this.instances = instances
    this.clock = crowd.clock
    this.lit = options.lighting === 'quake2'
    this.mesh = crowd.mesh
    this.renderer = renderer
    this.lowest = frames.geometry.boundingBox!.min.y
    this.shellColors = new Float32Array(limit * 3)
    this.shelled = new Uint8Array(limit)
    this.shadowed = new Uint8Array(limit)
    this.shade = new Float32Array(limit * 3)
    this.setLighting(options)
    this.shadowFloor = options.shadowFloor
    this.defaults = { shell: options.shell, shadow: options.shadow }
    const webgpu = renderer.webgpu
    // Shadows first: three draws translucent meshes at one depth in the order they were made.
    this.shadow = new CrowdLayer(
      frames.geometry,
      drawWithGpuFrames(createMD2ShadowMaterial(), frames, { shadow: true, webgpu, state: renderer.state }),
      `${name} shadow`,
    )
    this.shell = new CrowdLayer(
      frames.geometry,
      drawWithGpuFrames(createMD2ShellMaterial(), frames, { shell: true, instanceColor: true, webgpu, state: renderer.state }),
      `${name} shell`,
    )
    if (options.shell !== undefined && this.writeShell(0, options.shell)) {
      // Every instance the same: the colour is worked out once.
      this.shelled.fill(1)
      for (let i = 1; i < limit; i++) this.shellColors.copyWithin(i * 3, 0, 3)
    }
    if (options.shadow === 'blob') {
      this.shadowed.fill(1)
      this.open(this.shadow)
    }
  }

  /** Instance `i`'s shells, or the crowd's (`undefined`): its stored rows are written again. */
  setShell(i: number, given: CrowdShell | undefined): void {
    this.writeShell(i, given === undefined ? (this.defaults.shell ?? null) : given)
    this.clock.touch(i)
  }

  /** Sets instance `i`'s shell (or none); returns whether it has one. */
  private writeShell(i: number, shell: CrowdShell): boolean {
    const on = shell !== null && (typeof shell === 'string' || shell.length > 0)
    this.shelled[i] = on ? 1 : 0
    if (!on) return false
    // The shell's colour is given as sRGB, as a material's colour is.
    const [r, g, b] = shellColor(shell)
    scratchColor.setRGB(r, g, b, SRGBColorSpace)
    this.shellColors[i * 3] = scratchColor.r
    this.shellColors[i * 3 + 1] = scratchColor.g
    this.shellColors[i * 3 + 2] = scratchColor.b
    this.open(this.shell)
    return true
  }

  /** Instance `i`'s blob shadow (`"blob"`), none, or the crowd's (`undefined`). */
  setShadow(i: number, given: 'blob' | false | null | undefined): void {
    const shadow = given === undefined ? this.defaults.shadow : given
    this.shadowed[i] = shadow === 'blob' ? 1 : 0
    if (shadow === 'blob') this.open(this.shadow)
    this.clock.touch(i)
  }

  /** Gives a layer its rows, when first used: every instance's stored rows are written again, into it too. */
  private open(layer: CrowdLayer): void {
    if (layer.data) return
    layer.open(this.renderer.createMatrices())
    this.clock.changeAll(this.instances.size)
  }

  /** The open layers (shells, shadows), whose rows are copies of the crowd's. */
  get layered(): boolean {
    return this.shell.data !== undefined || this.shadow.data !== undefined
  }

  /**
   * Before a frame's stored rows (`storeRow`): `fresh` when the crowd's are all written again (every slot given
   * anew). Returns whether the crowd moved since its shadows' rows were written: their heights and yaws are world
   * ones, so every row is then written again.
   */
  beginStored(fresh: boolean): boolean {
    // Each layer by name: an array of them would be an allocation a frame.
    this.beginLayer(this.shell, fresh)
    this.beginLayer(this.shadow, fresh)
    // Instances no longer in use give their slots up.
    const size = this.instances.size
    for (let i = size; i < this.storedSize; i++) {
      if (this.shell.data) this.shell.releaseSlot(i)
      if (this.shadow.data) this.shadow.releaseSlot(i)
    }
    this.storedSize = size
    if (!this.shadow.data) return false
    const w = this.mesh.matrixWorld.elements
    let moved = false
    for (let e = 0; e < 16; e++)
      if (this.placedAt[e] !== w[e]) {
        moved = true
        this.placedAt[e] = w[e]!
      }
    return moved
  }

  private beginLayer(layer: CrowdLayer, fresh: boolean): void {
    if (!layer.data) return
    if (fresh) layer.resetStored(this.instances.capacity)
    layer.beginStored()
  }

  /**
   * Instance `i`'s stored row (row `i` of the crowd's `matrices` and `data`, written) copied into each open layer
   * that it wears, with the layer's own values (the shell's colour; the shadow's shade vector and height); its
   * slot given up in a layer it no longer wears.
   */
  storeRow(i: number, matrices: Float32Array, data: Float32Array): void {
    // An instance past the ones in use is drawn by no layer.
    const used = i < this.instances.size
    if (this.shell.data) {
      const at = this.shell.storeRow(i, used && this.wearsShell(i), matrices, data)
      if (at >= 0) this.writeShellColor(i, this.shell.data.array as Float32Array, at + LIGHT)
    }
    if (this.shadow.data) {
      const at = this.shadow.storeRow(i, used && this.castsShadow(i), matrices, data)
      if (at >= 0) this.writeShadow(i, this.shadow.data.array as Float32Array, at + LIGHT)
    }
  }

  /** The frame's stored rows are written: each open layer draws its slots. */
  commitStored(): void {
    if (this.shell.data) this.shell.commitStored()
    if (this.shadow.data) this.shadow.commitStored()
  }

  /**
   * Writes instance `i`'s blob shadow at `out[at …]`: the shade vector for its world yaw (its +Z seen from above),
   * as GL_DrawAliasShadow's, and its origin's height above the floor (`writeShadowHeight`).
   */
  writeShadow(i: number, out: Float32Array, at: number): void {
    const t = this.instances.transforms
    const w = this.mesh.matrixWorld.elements
    const o = i * 16
    const zx = w[0]! * t[o + 8]! + w[4]! * t[o + 9]! + w[8]! * t[o + 10]!
    const zz = w[2]! * t[o + 8]! + w[6]! * t[o + 9]! + w[10]! * t[o + 10]!
    const parameters = this.shadowParameters
    parameters[3] = (Math.atan2(zx, zz) * 180) / Math.PI
    shadowVector(parameters)
    out[at] = parameters[0]!
    out[at + 1] = parameters[1]!
    this.writeShadowHeight(i, out, at + 2)
  }

  /** A follower's layers open with its leader's: its instances wear what the leader's wear. */
  openLikeLeader(): void {
    if (this.leader?.shell.data) this.open(this.shell)
    if (this.leader?.shadow.data) this.open(this.shadow)
  }

  /** The crowd's shadelight (one level or RGB, for every instance) and entity flags: every row is written again. */
  setLighting(options: CrowdLighting): void {
    this.steady = { minlight: options.minlight, fullbright: options.fullbright }
    this.glow = options.glow === true
    this.writeGlow()
    const level = options.shadelight ?? 1
    for (let i = 0; i < this.instances.capacity; i++) this.setShadelight(i, level)
  }

  /** Instance `i`'s shadelight: one level, or RGB (its row is written again). */
  setShadelight(i: number, level: number | readonly [number, number, number]): void {
    for (let c = 0; c < 3; c++) this.shade[i * 3 + c] = typeof level === 'number' ? level : level[c]!
    if (this.lit) this.clock.touch(i)
  }

  /** Moves the glow's pulse on by `seconds`. */
  advance(seconds: number): void {
    if (seconds > 0 && Number.isFinite(seconds)) this.elapsed.seconds += seconds
    this.writeGlow()
  }

  /** The glow's pulse now into the shaders' uniform (effectiveShadelight's, written out: a call would box the number). */
  private writeGlow(): void {
    this.renderer.state.uniforms.md2Glow.value = this.glow ? GLOW_AMPLITUDE * Math.sin(this.elapsed.seconds * GLOW_RATE) : 0
  }

  /**
   * Writes instance `i`'s Quake II light at `out[at …]` (RGB): its shadelight by the crowd's minlight and fullbright;
   * the shader adds the glow's pulse and picks the light table's row from the instance's world yaw.
   */
  writeLight(i: number, out: Float32Array, at: number): void {
    const lightIn = this.lightIn
    lightIn[0] = this.shade[i * 3]!
    lightIn[1] = this.shade[i * 3 + 1]!
    lightIn[2] = this.shade[i * 3 + 2]!
    const light = effectiveShadelight(lightIn, this.steady, this.elapsed, this.lightOut)
    for (let c = 0; c < 3; c++) out[at + c] = light[c]!
  }

  /** Whether instance `i` wears a shell: its own, or its leader's instance's. */
  wearsShell(i: number): boolean {
    return this.shelled[i] === 1 || this.leader?.shelled[i] === 1
  }

  /** Writes the colour (linear RGB) of instance `i`'s shell at `out[at …]`: its own, else its leader's instance's. */
  writeShellColor(i: number, out: Float32Array, at: number): void {
    const colors = this.shelled[i] === 1 ? this.shellColors : this.leader!.shellColors
    for (let c = 0; c < 3; c++) out[at + c] = colors[i * 3 + c]!
  }

  /** Whether instance `i` casts a blob shadow: its own, or its leader's instance's (once the shadow layer is open). */
  castsShadow(i: number): boolean {
    return this.shadow.data !== undefined && (this.shadowed[i] === 1 || this.leader?.shadowed[i] === 1)
  }

  /**
   * Writes instance `i`'s origin's height above the floor its blob shadow lies on, in model units, at
   * `out[at]`: the crowd's `shadowFloor`, else the first up its chain of leaders, else the lowest point
   * of any frame of the first leader's instance (of its own, without a leader).
   */
  writeShadowHeight(i: number, out: Float32Array, at: number): void {
    if (this.shadowFloor === undefined && !this.leader) {
      out[at] = -this.lowest
      return
    }
    const upright = this.upright
    let floorHeight = this.shadowFloor
    if (floorHeight === undefined) {
      let floor = this.leader!
      while (floor.shadowFloor === undefined && floor.leader) floor = floor.leader
      floorHeight = floor.shadowFloor
      if (floorHeight === undefined) {
        floor.instances.writeUpright(i, floor.mesh.matrixWorld, upright)
        floorHeight = upright[0]! + floor.lowest * upright[1]!
      }
    }
    this.instances.writeUpright(i, this.mesh.matrixWorld, upright)
    out[at] = (upright[0]! - floorHeight) / upright[1]!
  }

  dispose(): void {
    this.shell.dispose()
    this.shadow.dispose()
  }
}

const scratchColor = new Color()
