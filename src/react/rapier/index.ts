/**
 * react-three-md2/rapier: physics for MD2 characters with @react-three/rapier (an optional peer, imported
 * here only), colliders that keep to a character's pose.
 */
export { MD2Collider, type MD2ColliderProps } from './MD2Collider.js'
export type { ColliderShape } from './ColliderFit.js'
