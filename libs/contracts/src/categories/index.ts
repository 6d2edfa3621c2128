export * from './category.constants';
export * from './category.fields';
export * from './category.inputs';
export {
  CategoryListMessage,
  CreateCategoryMessage,
  UpdateCategoryMessage,
} from './category.messages';
export * from './category.views';
