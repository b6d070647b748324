// The provider's operator API (bearer tokens, main domain only; decisions 0018, 0036).
import { feature } from '../http/feature';
import { operatorApi } from './api';

export const operator = feature({ api: [operatorApi] });
