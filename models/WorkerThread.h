#pragma once
// One background job at a time for a runner object (SearchRunner, CapacityRunner): the worker
// thread, its cancellation flag and the "running" state, which the owner clears with done()
// when the job's result has been delivered on its own thread.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <atomic>
#include <thread>
#include <utility>

namespace ts::gui {

class WorkerThread {
public:
    ~WorkerThread() {
        cancel();
        join();
    }

    // Runs `work` on a new thread; false while the previous job has not been delivered.
    template <class Work> bool start(Work&& work) {
        if (running_)
            return false;
        join();
        cancel_ = false;
        running_ = true;
        thread_ = std::thread(std::forward<Work>(work));
        return true;
    }
    void cancel() { cancel_ = true; }
    std::atomic<bool>* cancelFlag() { return &cancel_; }
    bool isRunning() const { return running_; }
    void done() { running_ = false; }

    // Processes events until the job has been delivered or `timeoutMs` passes.
    bool waitForFinished(int timeoutMs) {
        QElapsedTimer timer;
        timer.start();
        while (running_ && timer.elapsed() < timeoutMs) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            QThread::msleep(5);
        }
        return !running_;
    }

private:
    void join() {
        if (thread_.joinable())
            thread_.join();
    }
    std::thread thread_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};

} // namespace ts::gui
