import { PerspectiveCamera } from 'three'

/**
 * The camera the crowd tests cull against: at (0, 0, 200) looking down -Z (50°, 4:3, 1 to 5000 units),
 * its world matrix up to date, as a render would leave it.
 */
export function crowdCamera(): PerspectiveCamera {
  const camera = new PerspectiveCamera(50, 4 / 3, 1, 5000)
  camera.position.set(0, 0, 200)
  camera.updateMatrixWorld()
  return camera
}
