import { Vector3, type Camera } from 'three'
import type { Player } from './world'

/**
 * The third-person camera, over the player's right shoulder: this far behind its origin, this far to
 * its right and this high above. Off to the side, so the player never hides what the crosshair is on.
 */
const BACK = 150
export const SHOULDER = 36
const UP = 56

/** Where the camera stands for a player at `position` facing `yaw` (facing (sin, cos); its right is (−cos, sin)). */
export function cameraPosition(position: Vector3, yaw: number, target: Vector3): Vector3 {
  const sin = Math.sin(yaw)
  const cos = Math.cos(yaw)
  return target.set(position.x - sin * BACK - cos * SHOULDER, position.y + UP, position.z - cos * BACK + sin * SHOULDER)
}

const look = new Vector3()

/**
 * Puts the camera behind the player, looking along the player's yaw and the aim's pitch: the screen's
 * centre (the crosshair) is where a shot goes. Rigid rather than eased, so aiming is exact.
 */
export function placeCamera(camera: Camera, player: Player): void {
  cameraPosition(player.position, player.yaw, camera.position)
  const cos = Math.cos(player.pitch)
  look.set(Math.sin(player.yaw) * cos, Math.sin(player.pitch), Math.cos(player.yaw) * cos).add(camera.position)
  camera.lookAt(look)
}
