import { MathUtils } from 'three'
import type { MD2ModelData, MD2Animation } from '../../core/format/types.js'
import { threeAnimationGroups } from '../../core/format/threeAnimationGroups.js'
import { MD2CharacterParts, type MD2CharacterAnimations, type MD2CharacterConfig } from './MD2CharacterParts.js'

/** The keys `MD2CharacterComplex.controls` reads, as three's example sets them from the keyboard. */
export interface MD2CharacterControls {
  moveForward?: boolean
  moveBackward?: boolean
  moveLeft?: boolean
  moveRight?: boolean
  crouch?: boolean
  jump?: boolean
  attack?: boolean
}

/** Three counts its crossfade in rendered frames; the library fades over the time that many frames take at 60 Hz. */
const TRANSITION_FRAME_RATE = 60

/**
 * three.js's `MD2CharacterComplex` (`three/addons/misc/MD2CharacterComplex.js`) on the library: the movement
 * model driven by `controls` (`moveForward`…, `crouch`, `jump`, `attack`), the behaviours of `config.animations`,
 * crossfades between them, `shareParts` for characters that share one load, `enableShadows`, `setVisible`, and
 * `MD2Character`'s calls. Same fields and defaults as three's (`walkSpeed`, `maxSpeed`, `angularSpeed`…).
 *
 * What differs: the crossfade lasts `transitionFrames / 60` seconds at any frame rate (three's counts frames),
 * `setPlaybackRate(rate)` sets the speed (three's sets a field nothing reads), and the model is the right way
 * round (three's loader mirrors it; `{ handedness: 'three' }` mirrors it as three does).
 */
export class MD2CharacterComplex extends MD2CharacterParts {
  transitionFrames = 15
  maxSpeed = 275
  maxReverseSpeed = -275
  frontAcceleration = 600
  backAcceleration = 600
  frontDeceleration = 600
  angularSpeed = 2.5
  controls: MD2CharacterControls | null = null
  /** Which animation each behaviour plays (`config.animations`). */
  animations: MD2CharacterAnimations = {}
  speed = 0
  bodyOrientation = 0
  walkSpeed = this.maxSpeed
  crouchSpeed = this.maxSpeed * 0.5
  activeAnimation: string | null = null
  oldAnimation: string | null = null
  /** Rate the animations play at (`setPlaybackRate`). */
  playbackRate = 1
  private backwards = false

  protected override animationList(model: MD2ModelData): MD2Animation[] {
    return threeAnimationGroups(model, this.animationFPS)
  }

  protected override readConfig(config: MD2CharacterConfig): void {
    this.animations = config.animations ?? {}
    if (config.walkSpeed !== undefined) this.walkSpeed = config.walkSpeed
    if (config.crouchSpeed !== undefined) this.crouchSpeed = config.crouchSpeed
  }

  protected partMade(): void {}

  enableShadows(enable: boolean): void {
    for (const mesh of this.meshes) {
      mesh.castShadow = enable
      mesh.receiveShadow = enable
    }
  }

  setVisible(enable: boolean): void {
    for (const mesh of this.meshes) mesh.visible = enable
  }

  /** Makes this character from a loaded one's parts: the parsed models and skins are shared, each keeps its pose. */
  shareParts(original: MD2CharacterComplex): void {
    this.animations = original.animations
    this.walkSpeed = original.walkSpeed
    this.crouchSpeed = original.crouchSpeed
    this.skinsBody = original.skinsBody
    this.skinsWeapon = original.skinsWeapon
    if (!original.meshBody) return
    const body = this.makePart(original.meshBody.model, this.skinsBody[0])
    this.root.position.y = original.root.position.y
    this.setBody(body)
    original.weapons.forEach((weapon, index) => {
      const mesh = this.makePart(weapon.model, this.skinsWeapon[index])
      mesh.visible = false
      mesh.name = weapon.name
      this.weapons[index] = mesh
      this.meshWeapon = mesh
    })
  }

  /** Animation speed: 2 plays twice as fast, 0 freezes. */
  setPlaybackRate(rate: number): void {
    this.playbackRate = Math.max(0, rate)
  }

  /** Crossfades to an animation by name (nothing when it is the one playing or no name). */
  setAnimation(animationName: string | null | undefined): void {
    if (!animationName || animationName === this.activeAnimation) return
    if (this.controller) {
      this.play(animationName, this.activeAnimation === null ? 0 : this.transitionFrames / TRANSITION_FRAME_RATE)
      this.oldAnimation = this.activeAnimation
      this.activeAnimation = animationName
    }
  }

  private play(name: string, crossfade: number): void {
    this.controller!.play(name, { fps: this.animationFPS, crossfade, reverse: this.backwards })
    this.drawPose()
  }

  update(delta: number): void {
    if (this.controls) this.updateMovementModel(delta)
    if (this.animations) {
      this.updateBehaviors()
      this.updateAnimations(delta)
    }
  }

  updateAnimations(delta: number): void {
    if (this.controller?.update(delta * this.playbackRate)) this.drawPose()
  }

  /** Picks the animation for the controls: the behaviour's, crouched or not, played backwards when walking back. */
  updateBehaviors(): void {
    const controls = this.controls
    if (!controls) return
    const animations = this.animations
    let move = controls.crouch ? animations.crouchMove : animations.move
    let idle = controls.crouch ? animations.crouchIdle : animations.idle
    if (controls.jump) move = idle = animations.jump
    if (controls.attack) move = idle = controls.crouch ? animations.crouchAttack : animations.attack
    const moving = controls.moveForward || controls.moveBackward || controls.moveLeft || controls.moveRight
    if (moving && this.activeAnimation !== move) this.setAnimation(move)
    if (!moving && Math.abs(this.speed) < 0.2 * this.maxSpeed && this.activeAnimation !== idle) this.setAnimation(idle)
    const backwards = controls.moveBackward ? true : controls.moveForward ? false : this.backwards
    if (backwards !== this.backwards) {
      this.backwards = backwards
      if (this.activeAnimation && this.controller) this.play(this.activeAnimation, 0)
    }
  }

  /** Three's movement model: accelerate, turn, ease out, move the root along its heading. */
  updateMovementModel(delta: number): void {
    const controls = this.controls
    if (!controls) return
    this.maxSpeed = controls.crouch ? this.crouchSpeed : this.walkSpeed
    this.maxReverseSpeed = -this.maxSpeed
    const clampSpeed = (speed: number) => MathUtils.clamp(speed, this.maxReverseSpeed, this.maxSpeed)
    if (controls.moveForward) this.speed = clampSpeed(this.speed + delta * this.frontAcceleration)
    if (controls.moveBackward) this.speed = clampSpeed(this.speed - delta * this.backAcceleration)
    // Turning walks forward too, so the character does not spin on the spot.
    if (controls.moveLeft) {
      this.bodyOrientation += delta * this.angularSpeed
      this.speed = clampSpeed(this.speed + delta * this.frontAcceleration)
    }
    if (controls.moveRight) {
      this.bodyOrientation -= delta * this.angularSpeed
      this.speed = clampSpeed(this.speed + delta * this.frontAcceleration)
    }
    if (!(controls.moveForward || controls.moveBackward)) {
      if (this.speed > 0) {
        const k = easeOut(this.speed / this.maxSpeed)
        this.speed = MathUtils.clamp(this.speed - k * delta * this.frontDeceleration, 0, this.maxSpeed)
      } else {
        const k = easeOut(this.speed / this.maxReverseSpeed)
        this.speed = MathUtils.clamp(this.speed + k * delta * this.backAcceleration, this.maxReverseSpeed, 0)
      }
    }
    const step = this.speed * delta
    this.root.position.x += Math.sin(this.bodyOrientation) * step
    this.root.position.z += Math.cos(this.bodyOrientation) * step
    this.root.rotation.y = this.bodyOrientation
  }
}

/** Exponential ease-out: 1 at k = 1, falling fast below. */
function easeOut(k: number): number {
  return k === 1 ? 1 : 1 - Math.pow(2, -10 * k)
}
