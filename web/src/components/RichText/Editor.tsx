import { useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Divider, Input, Popover, Select, Tooltip, type InputRef } from 'antd';
import DisabledContext from 'antd/es/config-provider/DisabledContext';
import {
  BoldOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor as TiptapEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import Placeholder from '@tiptap/extension-placeholder';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { useViolationText } from '../Upload/UploadField.tsx';
import { acceptAttribute, checkFile, FILE_MAX_MB, IMAGE_MAX_MB, IMAGE_TYPES, VIDEO_TYPES, type FileRule } from '../Upload/rules.ts';
import { uploadFile, uploadToServer, type UploadTarget } from '../Upload/upload.ts';
import { editorValue } from './html.ts';
import { Video } from './video.ts';

export interface RichTextProps {
  value?: string | null;
  /** The HTML, or '' when the content is empty. */
  onChange?: (html: string) => void;
  disabled?: boolean;
  placeholder?: string;
  /** Height of the editing area in px (it grows beyond with the content up to `maxHeight`). */
  height?: number;
  maxHeight?: number;
  /** Where images and videos go: our server (default) or wherever the upload type says. */
  uploadTo?: 'server' | 'auto';
  /** Limits of inserted files (MB). */
  imageMaxSizeMB?: number;
  videoMaxSizeMB?: number;
  'data-testid'?: string;
}

type Heading = 'p' | 1 | 2 | 3 | 4;

function ToolButton({ title, icon, active, disabled, loading, onClick }: { title: string; icon: ReactNode; active?: boolean; disabled?: boolean; loading?: boolean; onClick: () => void }) {
  return (
    <Tooltip title={title} mouseEnterDelay={0.4}>
      <Button
        type={active ? 'primary' : 'text'}
        ghost={active}
        size="small"
        icon={icon}
        aria-label={title}
        aria-pressed={active}
        disabled={disabled}
        loading={loading}
        onMouseDown={(e) => e.preventDefault()} // keep the editor's selection
        onClick={onClick}
      />
    </Tooltip>
  );
}

function LinkButton({ editor, disabled }: { editor: TiptapEditor; disabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const input = useRef<InputRef>(null);
  const apply = () => {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (url) chain.setLink({ href: /^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(url) ? url : `https://${url}` }).run();
    else chain.unsetLink().run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setHref((editor.getAttributes('link').href as string | undefined) ?? '');
          requestAnimationFrame(() => input.current?.focus());
        }
        setOpen(next);
      }}
      trigger="click"
      afterOpenChange={(visible) => visible && input.current?.focus()}
      content={
        <div style={{ display: 'flex', gap: 8, width: 320 }}>
          <Input ref={input} size="small" placeholder={t('kit.richText.linkUrl')} value={href} onChange={(e) => setHref(e.target.value)} onPressEnter={apply} />
          <Button size="small" type="primary" onClick={apply}>
            {t('kit.form.submit')}
          </Button>
        </div>
      }
    >
      <span>
        <ToolButton title={t('kit.richText.link')} icon={<LinkOutlined />} active={editor.isActive('link')} disabled={disabled} onClick={() => undefined} />
      </span>
    </Popover>
  );
}

/** The tiptap editor behind RichText (loaded lazily by index.tsx). */
export default function Editor({
  value,
  onChange,
  disabled: disabledProp,
  placeholder,
  height = 300,
  maxHeight = 640,
  uploadTo = 'server',
  imageMaxSizeMB = IMAGE_MAX_MB,
  videoMaxSizeMB = FILE_MAX_MB,
  ...rest
}: RichTextProps) {
  const { t } = useTranslation();
  const violationText = useViolationText();
  // A disabled form (a FormDialog in view mode) makes the editor read-only.
  const formDisabled = useContext(DisabledContext);
  const disabled = disabledProp ?? formDisabled;
  // The last HTML this editor reported: a `value` equal to it is our own echo, not new content.
  const emitted = useRef<string>(editorValue(value));
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const [uploading, setUploading] = useState<'image' | 'video' | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const videoInput = useRef<HTMLInputElement>(null);

  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [1, 2, 3, 4] }, link: { openOnClick: false, autolink: true, defaultProtocol: 'https' }, codeBlock: false, code: false }),
      Image.configure({ inline: false, allowBase64: false }),
      Video,
      Placeholder.configure({ placeholder: placeholder ?? t('kit.richText.placeholder') }),
    ],
    content: value || '',
    editable: !disabled,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : editorValue(e.getHTML());
      emitted.current = html;
      onChangeRef.current?.(html);
    },
  });

  // New content from outside (the form loaded a record, or was reset).
  useEffect(() => {
    const next = editorValue(value);
    if (next === emitted.current) return;
    emitted.current = next;
    editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor.setEditable(!disabled);
  }, [editor, disabled]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      heading: ([1, 2, 3, 4] as const).find((level) => e.isActive('heading', { level })) ?? ('p' as Heading),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const insertFile = async (file: File | undefined, what: 'image' | 'video') => {
    if (!file) return;
    const rule: FileRule =
      what === 'image' ? { accept: IMAGE_TYPES, maxSizeMB: imageMaxSizeMB, kind: 'image' } : { accept: VIDEO_TYPES, maxSizeMB: videoMaxSizeMB, kind: 'file' };
    const violation = checkFile(file, rule);
    if (violation) {
      feedback.message.warning(violationText(violation));
      return;
    }
    const target: UploadTarget = what === 'image' ? 'img' : 'file';
    setUploading(what);
    try {
      const upload = uploadTo === 'server' ? uploadToServer : uploadFile;
      const { url } = await upload(file, { target, kind: what === 'image' ? 'img' : 'video' });
      if (what === 'image') editor.chain().focus().setImage({ src: url, alt: file.name }).run();
      else editor.chain().focus().setVideo({ src: url }).run();
    } catch {
      /* shown by the upload call */
    } finally {
      setUploading(null);
    }
  };

  const off = disabled;
  const chain = () => editor.chain().focus();

  return (
    <div className={['p8-rich-text', disabled ? 'is-disabled' : ''].join(' ')} data-testid={rest['data-testid'] ?? 'rich-text'}>
      <div className="p8-rich-text-toolbar" role="toolbar" style={disabled ? { display: 'none' } : undefined}>
        <Select<Heading>
          size="small"
          value={state.heading}
          disabled={off}
          style={{ width: 104 }}
          popupMatchSelectWidth={false}
          onChange={(level) => (level === 'p' ? chain().setParagraph().run() : chain().toggleHeading({ level }).run())}
          options={[
            { value: 'p', label: t('kit.richText.paragraph') },
            ...([1, 2, 3, 4] as const).map((level) => ({ value: level, label: t('kit.richText.heading', { level }) })),
          ]}
          aria-label={t('kit.richText.paragraph')}
        />
        <Divider orientation="vertical" />
        <ToolButton title={t('kit.richText.bold')} icon={<BoldOutlined />} active={state.bold} disabled={off} onClick={() => chain().toggleBold().run()} />
        <ToolButton title={t('kit.richText.italic')} icon={<ItalicOutlined />} active={state.italic} disabled={off} onClick={() => chain().toggleItalic().run()} />
        <ToolButton title={t('kit.richText.underline')} icon={<UnderlineOutlined />} active={state.underline} disabled={off} onClick={() => chain().toggleUnderline().run()} />
        <ToolButton title={t('kit.richText.strike')} icon={<StrikethroughOutlined />} active={state.strike} disabled={off} onClick={() => chain().toggleStrike().run()} />
        <Divider orientation="vertical" />
        <ToolButton title={t('kit.richText.bulletList')} icon={<UnorderedListOutlined />} active={state.bulletList} disabled={off} onClick={() => chain().toggleBulletList().run()} />
        <ToolButton title={t('kit.richText.orderedList')} icon={<OrderedListOutlined />} active={state.orderedList} disabled={off} onClick={() => chain().toggleOrderedList().run()} />
        <Divider orientation="vertical" />
        <LinkButton editor={editor} disabled={off} />
        {state.link && <ToolButton title={t('kit.richText.unlink')} icon={<DisconnectOutlined />} disabled={off} onClick={() => chain().extendMarkRange('link').unsetLink().run()} />}
        <ToolButton title={t('kit.richText.image')} icon={<PictureOutlined />} disabled={off || !!uploading} loading={uploading === 'image'} onClick={() => imageInput.current?.click()} />
        <ToolButton title={t('kit.richText.video')} icon={<VideoCameraOutlined />} disabled={off || !!uploading} loading={uploading === 'video'} onClick={() => videoInput.current?.click()} />
        <Divider orientation="vertical" />
        <ToolButton title={t('kit.richText.undo')} icon={<UndoOutlined />} disabled={off || !state.canUndo} onClick={() => chain().undo().run()} />
        <ToolButton title={t('kit.richText.redo')} icon={<RedoOutlined />} disabled={off || !state.canRedo} onClick={() => chain().redo().run()} />
        <input
          ref={imageInput}
          type="file"
          style={{ display: 'none' }}
          accept={acceptAttribute(IMAGE_TYPES)}
          onChange={(e) => {
            void insertFile(e.target.files?.[0], 'image');
            e.target.value = '';
          }}
        />
        <input
          ref={videoInput}
          type="file"
          style={{ display: 'none' }}
          accept={acceptAttribute(VIDEO_TYPES)}
          onChange={(e) => {
            void insertFile(e.target.files?.[0], 'video');
            e.target.value = '';
          }}
        />
      </div>
      <EditorContent editor={editor} className="p8-rich-text-content" style={{ minHeight: height, maxHeight }} />
    </div>
  );
}
