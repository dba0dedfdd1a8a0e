// three.js's own classes under the library's import, for the build that checks the pages on them (vite.config.ts).
export { MD2Character } from 'three/addons/misc/MD2Character.js'
export { MD2CharacterComplex } from 'three/addons/misc/MD2CharacterComplex.js'
