export * from './forms.module';
export * from './forms.service';
export * from './draft-editor.service';
export * from './published-forms';
export * from './workspace-access';
export * from './form-view';
export * from './dto';
export * from './edit-body';
export { draftTooLarge } from './draft-errors';
