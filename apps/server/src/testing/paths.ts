export const TEMPLATE_PATH = new URL('../../../../.tmp/pglite-template.tar.gz', import.meta.url);
