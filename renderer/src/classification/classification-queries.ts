/** Asking the classification service: its answer changes nothing else the renderer reads. */
import { useIpcMutation } from '../query/ipc-query';

export const useClassify = () => useIpcMutation('classification.classify');
