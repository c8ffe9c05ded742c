export const TEMPLATE_PATH = new URL('../../../../.tmp/pglite-template.tar', import.meta.url);
