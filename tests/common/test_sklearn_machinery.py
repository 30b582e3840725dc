"""scikit-learn's machinery around the estimators: metadata routing, the
notebook display, tags, grid searches over processes, calibration; and the
package without scikit-learn."""
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from perceptron import (CentroidClassifier, ConvergenceWarning, KernelPerceptron, # noqa: E402
                        Perceptron, VotedPerceptron)

ALL = [Perceptron, VotedPerceptron, CentroidClassifier, KernelPerceptron]


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def data(rng, n=240, d=5):
    X = rng.standard_normal((n, d)) * 3 + 1
    y = (X @ rng.standard_normal(d) + rng.standard_normal(n) > 1).astype(int)
    return X, y


# ------------------------------------------------------------ metadata routing

def test_requests_are_scikit_learns_for_the_same_signature(routing):
    from sklearn.linear_model import Perceptron as SkPerceptron

    ours = Perceptron().get_metadata_routing()
    theirs = SkPerceptron().get_metadata_routing()
    for method in ("fit", "partial_fit", "score"):
        assert getattr(ours, method).requests == getattr(theirs, method).requests, method
    ours = Perceptron().set_fit_request(sample_weight=True).set_score_request(sample_weight="w")
    theirs = SkPerceptron().set_fit_request(sample_weight=True).set_score_request(
        sample_weight="w")
    assert str(ours.get_metadata_routing()) == str(theirs.get_metadata_routing())


def test_each_estimator_has_the_setters_its_signatures_call_for(routing):
    expected = {Perceptron: {"fit", "partial_fit", "score"}, VotedPerceptron: {"score"},
                CentroidClassifier: {"fit", "score"}, KernelPerceptron: {"score"}}
    for cls in ALL:
        setters = {name[len("set_"):-len("_request")] for name in dir(cls)
                   if name.startswith("set_") and name.endswith("_request")}
        assert setters == expected[cls], cls
        est = cls().set_score_request(sample_weight=False)
        assert est.get_metadata_routing().score.requests == {"sample_weight": False}


def test_setters_check_their_arguments_and_the_config(routing):
    with pytest.raises(TypeError, match="Unexpected args.*weights"):
        Perceptron().set_fit_request(weights=True)
    with pytest.raises(TypeError, match="positional"):
        Perceptron().set_fit_request(True)
    with pytest.raises(ValueError):
        Perceptron().set_fit_request(sample_weight=3.5)
    with sklearn.config_context(enable_metadata_routing=False):
        with pytest.raises(RuntimeError, match="enable_metadata_routing=True"):
            Perceptron().set_fit_request(sample_weight=True)
    # UNCHANGED leaves a request as it was
    est = Perceptron().set_fit_request(sample_weight=True).set_fit_request(coef_init=False)
    assert est.get_metadata_routing().fit.requests == {
        "coef_init": False, "intercept_init": None, "sample_weight": True}


def test_requests_survive_clone_and_pickle_and_do_not_leak(routing):
    est = Perceptron(eta0=0.5).set_fit_request(sample_weight=True)
    for twin in (clone(est), pickle.loads(pickle.dumps(est))):
        assert twin.get_metadata_routing().fit.requests["sample_weight"] is True
    # the setter changed only that estimator, not the class's defaults
    assert Perceptron().get_metadata_routing().fit.requests["sample_weight"] is None
    # and a request on a copy does not reach the original
    twin = clone(est).set_fit_request(sample_weight=False)
    assert est.get_metadata_routing().fit.requests["sample_weight"] is True
    assert twin.get_params() == est.get_params()


def test_pipeline_scores_and_cross_val_score_gives_numbers(routing, rng):
    X, y = data(rng)
    for cls in ALL:
        pipe = make_pipeline(StandardScaler(), cls())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            assert 0.5 < pipe.fit(X, y).score(X, y) <= 1.0
            scores = cross_val_score(make_pipeline(StandardScaler(), cls()), X, y, cv=3)
        assert scores.shape == (3,) and np.isfinite(scores).all() and (scores > 0.5).all()


def test_sample_weight_is_routed_to_fit_and_score(routing, rng):
    X, y = data(rng)
    w = rng.uniform(0.2, 3.0, len(y))
    cv = KFold(3, shuffle=True, random_state=0)
    for cls in (Perceptron, CentroidClassifier):
        est = cls().set_fit_request(sample_weight=True).set_score_request(sample_weight=True)
        pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=False), est)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            routed = cross_val_score(pipe, X, y, cv=cv, params={"sample_weight": w})
            by_hand = []
            for train, test in cv.split(X):
                scaler = StandardScaler().fit(X[train])
                model = cls().fit(scaler.transform(X[train]), y[train], sample_weight=w[train])
                by_hand.append(model.score(scaler.transform(X[test]), y[test],
                                           sample_weight=w[test]))
        np.testing.assert_array_equal(routed, by_hand)
    # not requested: an error, as for scikit-learn's estimators
    with pytest.raises(Exception, match="sample_weight"):
        cross_val_score(make_pipeline(Perceptron()), X, y, cv=cv, params={"sample_weight": w},
                        error_score="raise")


# ---------------------------------------------------- display, tags, processes

def test_html_repr_is_scikit_learns(rng):
    est = Perceptron(eta0=0.5, average=True)
    html = est._repr_html_()
    assert "Perceptron" in html and "eta0" in html and "<div" in html
    bundle = est._repr_mimebundle_()
    assert bundle["text/plain"] == repr(est) == "Perceptron(average=True, eta0=0.5)"
    assert "sk-top-container" in bundle["text/html"] and "eta0" in bundle["text/html"]
    X, y = data(rng)
    fitted = CentroidClassifier().fit(X, y)
    assert "CentroidClassifier" in fitted._repr_html_()
    pipe_html = sklearn.utils.estimator_html_repr(make_pipeline(StandardScaler(), est))
    assert "Perceptron" in pipe_html
    with sklearn.config_context(display="text"):
        assert not hasattr(est, "_repr_html_")
        assert set(est._repr_mimebundle_()) == {"text/plain"}


def test_old_and_new_tags_agree():
    from sklearn.utils import get_tags

    for cls in ALL:
        tags, more = get_tags(cls()), cls()._more_tags()
        assert tags.estimator_type == "classifier" and tags.target_tags.required
        assert more["requires_y"] is True and tags.input_tags.sparse
        assert "sparse" in more["X_types"]
    assert get_tags(Perceptron()).classifier_tags.multi_label


@pytest.mark.slow  # worker processes
def test_grid_search_over_processes(rng):
    # loky workers: the estimators, fitted or not, travel by pickle
    X, y = data(rng)
    grid = {"eta0": [0.1, 1.0], "average": [False, True]}
    results = []
    for n_jobs in (1, 2):
        search = GridSearchCV(Perceptron(random_state=0, max_iter=20), grid, cv=3,
                              n_jobs=n_jobs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            search.fit(X, y)
        results.append(search)
    np.testing.assert_array_equal(results[0].cv_results_["mean_test_score"],
                                  results[1].cv_results_["mean_test_score"])
    assert results[0].best_params_ == results[1].best_params_
    np.testing.assert_array_equal(results[0].predict(X), results[1].predict(X))
    for cls in ALL:
        search = GridSearchCV(cls(), {}, cv=2, n_jobs=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            search.fit(X, y)
        assert np.isfinite(search.cv_results_["mean_test_score"]).all()


@pytest.mark.parametrize("cls", ALL)
def test_pickles_of_fitted_and_unfitted_estimators(cls, rng):
    X, y = data(rng)
    est = cls()
    twin = pickle.loads(pickle.dumps(est))
    assert twin.get_params() == est.get_params() and repr(twin) == repr(est)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    twin = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(twin.predict(X), est.predict(X))
    np.testing.assert_array_equal(twin.decision_function(X), est.decision_function(X))


@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
def test_calibrated_classifier(method, rng):
    X, y = data(rng, n=400)
    for est in (Perceptron(random_state=0), Perceptron(average=True), CentroidClassifier()):
        calibrated = CalibratedClassifierCV(est, method=method, cv=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            calibrated.fit(X, y)
        proba = calibrated.predict_proba(X)
        assert proba.shape == (len(y), 2)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert ((proba >= 0) & (proba <= 1)).all()
        assert calibrated.score(X, y) > 0.7
    # three classes: one calibrator per class
    y3 = np.digitize(X[:, 0], [-0.5, 1.5])
    calibrated = CalibratedClassifierCV(Perceptron(), method=method, cv=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        proba = calibrated.fit(X, y3).predict_proba(X)
    assert proba.shape == (len(y3), 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# -------------------------------------------------------- without scikit-learn

WITHOUT_SKLEARN = r"""
import pickle, sys
import numpy as np

class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "sklearn" or name.startswith("sklearn."):
            raise ImportError("no scikit-learn here")
sys.meta_path.insert(0, Block())

import perceptron
from perceptron import Perceptron, VotedPerceptron, CentroidClassifier, KernelPerceptron
X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.0, 3.0]])
y = np.array([0, 1, 1, 0])
for cls in (Perceptron, VotedPerceptron, CentroidClassifier, KernelPerceptron):
    est = cls().fit(X, y)
    assert est.score(X, y) >= 0.5
    assert pickle.loads(pickle.dumps(est)).predict(X).tolist() == est.predict(X).tolist()
    assert not hasattr(est, "_repr_html_") and not hasattr(est, "set_score_request")
    assert type(est).__mro__[-2:] == (perceptron._common.sklearn_compat.EstimatorBase, object)
assert not any(m == "sklearn" or m.startswith("sklearn.") for m in sys.modules)
print("ok")
"""


@pytest.mark.slow  # a fresh interpreter
def test_the_package_works_without_scikit_learn():
    result = subprocess.run([sys.executable, "-c", WITHOUT_SKLEARN], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"


def test_with_scikit_learn_the_estimators_are_its_estimators():
    from sklearn.base import BaseEstimator, is_classifier

    for cls in ALL:
        assert issubclass(cls, BaseEstimator) and is_classifier(cls())


def test_partial_fit_trains_every_row_with_early_stopping(rng):
    X, y = data(rng)
    early = Perceptron(early_stopping=True, shuffle=False).partial_fit(X, y, classes=[0, 1])
    plain = Perceptron(shuffle=False).partial_fit(X, y, classes=[0, 1])
    np.testing.assert_array_equal(early.coef_, plain.coef_)
    np.testing.assert_array_equal(early.intercept_, plain.intercept_)


@pytest.mark.parametrize("sparse", [False, True])
def test_nan_in_the_held_out_rows_is_refused(sparse, rng):
    X, y = data(rng)
    X[:, 2] = np.where(np.arange(len(y)) % 7 == 3, np.nan, X[:, 2])
    if sparse:
        X = pytest.importorskip("scipy.sparse").csr_matrix(X)
    for fraction in (0.1, 0.5, 0.9):
        with pytest.raises(ValueError, match="NaN or infinity"):
            Perceptron(early_stopping=True, validation_fraction=fraction).fit(X, y)
