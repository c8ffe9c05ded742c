// A refused pairing, unlink or setting change is the app's one refusal error (lib/api-client).
export { ApiError as BraceletChangeError } from '../../../lib/api-client';
