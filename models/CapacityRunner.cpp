#include "CapacityRunner.h"

#include "catalog/Catalog.h"

#include <QMetaObject>
#include <QPointer>

namespace ts::gui {

CapacityRunner::CapacityRunner(QObject* parent) : QObject(parent) {}

bool CapacityRunner::start(const Scenario& base, CapacityRequest request,
                           std::vector<InventoryHolding> inventory) {
    if (worker_.isRunning())
        return false;
    request.search.cancel = worker_.cancelFlag();
    request.search.progress = nullptr; // per size; the planner's own progress says more
    QPointer<CapacityRunner> self(this);
    request.progress = [self](const CapacityProgress& p) {
        // Queued to the runner's thread; a runner that is gone receives nothing.
        QMetaObject::invokeMethod(
            self,
            [self, fraction = p.fraction, gpu = QString::fromStdString(p.gpu), n = p.numGpus] {
                if (self)
                    emit self->progress(fraction, gpu, n);
            },
            Qt::QueuedConnection);
    };
    return worker_.start([this, self, base, request, inventory] {
        Diagnostics diags;
        auto found =
            planCapacity(base, Catalog::builtIn(), CalibrationRegistry::standard(), request, diags);
        if (!inventory.empty()) {
            InventoryRequest ir;
            ir.tokens = request.tokens;
            ir.deadlineDays = request.deadlineDays;
            ir.budgetUsd = request.budgetUsd;
            ir.search.domain = request.search.domain;
            ir.search.constraints.memoryHeadroom = request.search.constraints.memoryHeadroom;
            ir.search.cancel = request.search.cancel;
            Diagnostics invDiags;
            auto planned = planInventory(base, inventory, ir, Catalog::builtIn(),
                                         CalibrationRegistry::standard(), invDiags);
            std::shared_ptr<const InventoryResult> inv;
            if (planned)
                inv = std::make_shared<const InventoryResult>(std::move(*planned));
            QMetaObject::invokeMethod(
                this,
                [self, inv] {
                    if (self)
                        emit self->inventoryFinished(inv);
                },
                Qt::QueuedConnection);
        }
        std::shared_ptr<const CapacityResult> result;
        QString error;
        if (found)
            result = std::make_shared<const CapacityResult>(std::move(*found));
        else if (!diags.errors().empty())
            error = QString::fromStdString(diags.errors().front().toString());
        else
            error = tr("The capacity plan did not run");
        QMetaObject::invokeMethod(
            this,
            [self, result, error] {
                if (!self)
                    return;
                self->worker_.done();
                emit self->finished(result, error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace ts::gui
