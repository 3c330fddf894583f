/**
 * Drag and drop for the pipeline board (dnd-kit), loaded on demand by PipelineBoard: never part of
 * a page's first load. Keyboard: focus a card's handle, Space or Enter picks it up, ← and → go
 * from column to column, Space or Enter drops it, Escape cancels.
 */
import {
  DndContext,
  DragOverlay,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { type ReactNode, useState } from "react";
import type { BoardWrappers } from "./pipeline-board";
import { type BoardCard, DragHandleIcon } from "./pipeline-card";
import { type PipelineStage, isPipelineStage, stageLabel } from "~/lib/pipeline";
import { cn } from "~/lib/utils";

export interface DndLayerProps {
  cards: Map<number, BoardCard>;
  onMove: (id: number, to: PipelineStage) => void;
  children: (wrap: BoardWrappers) => ReactNode;
}

/** ← and → jump to the centre of the neighbouring column; other keys do nothing. */
const columnCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === KeyboardCode.Right ? 1 : event.code === KeyboardCode.Left ? -1 : 0;
  if (!step) return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects } = context;
  if (!collisionRect) return undefined;
  const columns = [...droppableRects.values()].sort((a, b) => a.left - b.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  let index = columns.findIndex((rect) => centre >= rect.left && centre <= rect.left + rect.width);
  if (index < 0) index = columns.findIndex((rect) => rect.left > centre) - (step > 0 ? 1 : 0);
  const target = columns[index + step];
  if (!target) return currentCoordinates;
  return { x: target.left + (target.width - collisionRect.width) / 2, y: currentCoordinates.y };
};

function cardName(cards: Map<number, BoardCard>, id: string | number) {
  return cards.get(Number(id))?.patientName ?? "Cirurgia";
}

export function DndLayer({ cards, onMove, children }: DndLayerProps) {
  const [active, setActive] = useState<BoardCard | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }),
  );
  const overName = (over: { id: string | number } | null) => (over && isPipelineStage(over.id) ? stageLabel(over.id) : null);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={rectIntersection}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            "Para mover a cirurgia, pressione espaço ou Enter. Use as setas esquerda e direita para escolher a etapa e pressione espaço ou Enter para soltar, ou Esc para cancelar.",
        },
        announcements: {
          onDragStart: ({ active }) => `${cardName(cards, active.id)} selecionada.`,
          onDragOver: ({ active, over }) => {
            const name = overName(over);
            return name ? `${cardName(cards, active.id)} sobre a etapa ${name}.` : undefined;
          },
          onDragEnd: ({ active, over }) => {
            const name = overName(over);
            return name ? `${cardName(cards, active.id)} movida para ${name}.` : `${cardName(cards, active.id)} solta fora das etapas.`;
          },
          onDragCancel: ({ active }) => `Movimento de ${cardName(cards, active.id)} cancelado.`,
        },
      }}
      onDragStart={(event: DragStartEvent) => setActive(cards.get(Number(event.active.id)) ?? null)}
      onDragCancel={() => setActive(null)}
      onDragEnd={(event: DragEndEvent) => {
        setActive(null);
        if (event.over && isPipelineStage(event.over.id)) onMove(Number(event.active.id), event.over.id);
      }}
    >
      {children({
        column: (stage, node) => (
          <DroppableColumn key={stage} stage={stage}>
            {node}
          </DroppableColumn>
        ),
        card: (card, render) => <DraggableCard key={card.id} card={card} render={render} />,
      })}
      <DragOverlay dropAnimation={null}>
        {active ? (
          <div className="rounded-md border bg-card p-3 text-sm shadow-lg">
            <p className="font-medium">{active.patientName}</p>
            <p>{active.surgeryType}</p>
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

function DroppableColumn({ stage, children }: { stage: PipelineStage; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: stage });
  return (
    <div ref={setNodeRef} className={cn("flex rounded-lg", isOver && "ring-2 ring-primary")}>
      {children}
    </div>
  );
}

function DraggableCard({ card, render }: { card: BoardCard; render: (handle: ReactNode) => ReactNode }) {
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, isDragging } = useDraggable({ id: card.id });
  return (
    <div ref={setNodeRef} className={cn(isDragging && "opacity-40")}>
      {render(
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Arrastar ${card.patientName}`}
          className="cursor-grab touch-none rounded-sm p-0.5 text-muted-foreground hover:text-foreground"
        >
          <DragHandleIcon />
        </button>,
      )}
    </div>
  );
}
