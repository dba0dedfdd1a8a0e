import { MeshBasicMaterial, SRGBColorSpace } from 'three'
import { SHELL_ALPHA, shellColor, type ShellSpec } from '../../core/lighting/quake2Light.js'
import { webgpuMaterials } from './webgpuMaterials.js'

/**
 * Quake II's power-up shell (`RF_SHELL_*`): untextured, at alpha 0.3, writing no depth, in the colour of its
 * shells (taken as sRGB, as a material's colour is), blended in sRGB on either renderer, for `<MD2Shell>` and
 * the crowd's shell layer alike.
 */
export function createMD2ShellMaterial(shell?: ShellSpec | readonly ShellSpec[]): MeshBasicMaterial {
  const material = new MeshBasicMaterial({ transparent: true, opacity: SHELL_ALPHA, depthWrite: false })
  if (shell !== undefined) setShellColor(material, shell)
  webgpuMaterials()?.blendInSRGB(material)
  return material
}

/** Gives a shell material the colour Quake II draws these shells in (`shellColor`). */
export function setShellColor(material: MeshBasicMaterial, shell: ShellSpec | readonly ShellSpec[]): void {
  material.color.setRGB(...shellColor(shell), SRGBColorSpace)
}
