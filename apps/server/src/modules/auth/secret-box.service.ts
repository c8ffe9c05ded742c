/** Small secrets sealed at rest (TOTP keys, webhook signing secrets), for other modules. */
export { secretBox, type SecretBox } from './secret-box.js';
