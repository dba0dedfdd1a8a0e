import { MD2CharacterParts, type MD2CharacterMesh } from './MD2CharacterParts.js'

/**
 * three.js's `MD2Character` (`three/addons/misc/MD2Character.js`) on the library: the same fields and calls
 * (`loadParts(config)`, `onLoadComplete`, `setAnimation`, `setPlaybackRate`, `setWireframe`, `setSkin`,
 * `setWeapon`, `update(delta)`), so code written for three's runs when only the import changes. Underneath, an
 * `MD2AnimationController` plays the animations (listed by three's names in `meshBody.geometry.animations`)
 * and `writeMD2Pose` draws the body and, from the body's pose, the weapon: interpolated keyframes with Quake
 * II's normals, no morph targets.
 *
 * What differs: there is no `mixer` (the `controller` plays instead), and the model is the right way round
 * (three's loader mirrors it); `new MD2Character({ handedness: 'three' })` mirrors it as three does.
 */
export class MD2Character extends MD2CharacterParts {
  /** The animation last passed to `setAnimation`. */
  activeClipName: string | null = null
  /** The first animation's name once the body is loaded (as three's sets it). */
  activeAnimationClipName: string | null = null
  /** Three's `mixer.timeScale`: 1 / the playback rate, 0 when frozen. */
  timeScale = 1
  private playing = false
  protected readonly label = 'MD2Character'

  protected partMade(mesh: MD2CharacterMesh): void {
    mesh.castShadow = true
    mesh.receiveShadow = true
  }

  protected override setBody(mesh: MD2CharacterMesh): void {
    super.setBody(mesh)
    this.activeAnimationClipName = this.controller!.animation.name
  }

  protected override partsCleared(): void {
    this.activeClipName = null
    this.activeAnimationClipName = null
    this.playing = false
  }

  /**
   * As three's: time runs at 1 / `rate` (three sets its mixer's `timeScale` so); 0 freezes the model. A rate
   * that is not a finite number ≥ 0 is ignored, with a one-time warning.
   */
  setPlaybackRate(rate: number): void {
    if (this.checkTime('setPlaybackRate', rate)) this.timeScale = rate !== 0 ? 1 / rate : 0
  }

  /**
   * Plays an animation by name, from its first frame, the weapon in step. Nothing moves before the first call,
   * as in three's. Once loaded, a name the body has no animation of (or no name) is ignored, with a one-time
   * warning: the animation playing goes on.
   */
  setAnimation(clipName: string): void {
    if (!this.controller) {
      if (typeof clipName === 'string') this.activeClipName = clipName
      return
    }
    const animation = this.findClip(clipName)
    if (!animation) return this.unknownClip(clipName)
    this.controller.play(this.controller.animations.indexOf(animation))
    this.playing = true
    this.drawPose()
    this.activeClipName = clipName
  }

  /** Shows the weapon the body's pose (three's name for what `setWeapon` calls). */
  syncWeaponAnimation(): void {
    this.drawPose()
  }

  /** Moves time on by `delta` seconds and draws the pose (a delta that is not a finite number ≥ 0 is ignored, warned once). Allocates nothing. */
  update(delta: number): void {
    if (!this.checkTime('update', delta)) return
    if (this.playing) this.advance(delta * this.timeScale)
  }
}
