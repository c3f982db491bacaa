/** The one place that maps a block type to its renderer. */
import type { Block } from '../../shared/domain';
import type { BlockContext, BlockView } from './blockView';
import { QuestionsView, SourcesView } from './chips';
import { CodeBlockView } from './codeBlock';
import { ImageBlockView } from './imageBlock';
import { MessageBlockView } from './messageBlock';
import { TableBlockView } from './tableBlock';

export function createBlockView(block: Block, ctx: BlockContext, streaming: boolean): BlockView {
  switch (block.type) {
    case 'MESSAGE':
      return new MessageBlockView(block.content, streaming);
    case 'CODE':
      return new CodeBlockView(block.content, ctx);
    case 'TABLE':
      return new TableBlockView(block.content, ctx);
    case 'IMAGE':
      return new ImageBlockView(block.content, ctx);
    case 'SOURCES':
      return new SourcesView(block.content, ctx);
    case 'QUESTIONS':
      return new QuestionsView(block.content, ctx);
  }
}
