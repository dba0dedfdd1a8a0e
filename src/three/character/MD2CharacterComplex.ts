import { MathUtils } from 'three'
import { warnOnce } from '../../core/warnOnce.js'
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
/** The longest step the movement model takes, in seconds. */
const MAX_MOVEMENT_STEP = 1

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
  protected readonly label = 'MD2CharacterComplex'
  /** The last name `setAnimation` found no animation of. */
  private rejected: string | null = null

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

  /**
   * Makes this character from a loaded one's parts: the parsed models and skins are shared, each keeps its
   * pose. The parts this character had are replaced (and freed); the shared skins stay the original's, which
   * only it frees. An original that is not a loaded character (null, not yet loaded, disposed, this one) is
   * ignored, with a one-time warning.
   */
  shareParts(original: MD2CharacterComplex): void {
    const body = original instanceof MD2CharacterComplex && original !== this ? original.meshBody : null
    if (!body) {
      const what =
        original === this
          ? 'the character itself'
          : original instanceof MD2CharacterComplex
            ? 'a character with no parts yet (share in its onLoadComplete)'
            : String(original)
      warnOnce(
        `character-shareParts:${what}`,
        `MD2CharacterComplex.shareParts: the original is ${what}, not a loaded MD2CharacterComplex; ignored`,
      )
      return
    }
    this.takeSharedSkins(original)
    this.animations = original.animations
    this.walkSpeed = original.walkSpeed
    this.crouchSpeed = original.crouchSpeed
    const mesh = this.makePart(body.model, this.skinsBody[0])
    this.root.position.y = original.root.position.y
    this.setBody(mesh)
    original.weapons.forEach((weapon, index) => {
      const mesh = this.makePart(weapon.model, this.skinsWeapon[index])
      mesh.visible = false
      mesh.name = weapon.name
      this.weapons[index] = mesh
      this.meshWeapon = mesh
    })
  }

  protected override partsCleared(): void {
    this.activeAnimation = null
    this.oldAnimation = null
    this.rejected = null
  }

  /** Animation speed: 2 plays twice as fast, 0 freezes; a rate that is not a finite number ≥ 0 is ignored, warned once. */
  setPlaybackRate(rate: number): void {
    if (this.checkTime('setPlaybackRate', rate)) this.playbackRate = rate
  }

  /**
   * Crossfades to an animation by name (nothing when it is the one playing or no name, as three's). A name the
   * body has no animation of is ignored, with a one-time warning.
   */
  setAnimation(animationName: string | null | undefined): void {
    if (!animationName || animationName === this.activeAnimation || animationName === this.rejected) return
    if (!this.controller) return
    const animation = this.findClip(animationName)
    if (!animation) {
      // Remembered, so that a behaviour naming no animation costs nothing each frame after the warning.
      this.rejected = animationName
      return this.unknownClip(animationName)
    }
    this.play(animation, this.activeAnimation === null ? 0 : this.transitionFrames / TRANSITION_FRAME_RATE)
    this.oldAnimation = this.activeAnimation
    this.activeAnimation = animationName
  }

  private play(animation: MD2Animation, crossfade: number): void {
    const controller = this.controller!
    controller.play(controller.animations.indexOf(animation), { fps: this.animationFPS, crossfade, reverse: this.backwards })
    this.drawPose()
  }

  /**
   * Moves the character by its controls and its animations on by `delta` seconds. A delta that is not a
   * finite number ≥ 0 is ignored (warned once); the movement model takes at most one second of a longer one,
   * so that a stalled tab does not throw the character across the map (nor its position past a double's range).
   */
  update(delta: number): void {
    if (!this.checkTime('update', delta)) return
    if (this.controls) this.updateMovementModel(delta > MAX_MOVEMENT_STEP ? MAX_MOVEMENT_STEP : delta)
    if (this.animations) {
      this.updateBehaviors()
      this.updateAnimations(delta)
    }
  }

  updateAnimations(delta: number): void {
    this.advance(delta * this.playbackRate)
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
      const animation = this.findClip(this.activeAnimation)
      if (animation) this.play(animation, 0)
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
