"""scikit-learn compatibility, without depending on scikit-learn at run time."""
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import GridSearchCV, cross_val_score  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from perceptron import (CentroidClassifier, ConvergenceWarning, NotFittedError,  # noqa: E402
                        Perceptron, VotedPerceptron)

ESTIMATORS = [
    Perceptron(),
    Perceptron(average=True, multiclass="multinomial"),
    Perceptron(pocket=True),
    Perceptron(batch_size=8, margin=0.5),
    Perceptron(tol=None),
    Perceptron(fit_intercept=False),
    Perceptron(shuffle=False),
    Perceptron(early_stopping=True, validation_fraction=0.5, n_iter_no_change=2),
    Perceptron(multiclass="multinomial", n_jobs=2),
    Perceptron(penalty="elasticnet", alpha=1e-3),
    Perceptron(penalty="l1", multiclass="multinomial", average=True),
    VotedPerceptron(),
    VotedPerceptron(max_vectors=3, fit_intercept=False),
    CentroidClassifier(),
]


# checks that a setting cannot pass, beyond those the classes declare
EARLY_STOPPING_FAILURES = {
    "check_class_weight_classifiers":
        "with early_stopping the weights kept are those of the best held-out score after "
        "an epoch, on the check's overlapping blobs they need not favour the class of "
        "weight 1000 on 87% of the rows; scikit-learn's Perceptron(early_stopping=True, "
        "validation_fraction=0.5, n_iter_no_change=2) fails this check too",
}

NO_INTERCEPT_FAILURES = {
    "check_class_weight_classifiers":
        "without an intercept the separator passes through the origin, which the check's "
        "blobs do not straddle: about half the test rows go to class 0, not 87%; "
        "scikit-learn's Perceptron(fit_intercept=False) fails this check too (0.52)",
}
FIXED_ORDER_FAILURES = {
    "check_class_weight_classifiers":
        "one-vs-rest problems weigh each row by its own class's weight (scikit-learn "
        "weighs the 'rest' rows 1: a difference the Perceptron docstring states), so "
        "the rows of weight 1e-4 barely move the class-0 separator; in the fixed row order "
        "of shuffle=False the three blobs give 84% of the test rows to class 0, below the "
        "check's 87% (the shuffled default gives 100%)",
}

MIXING_FAILURES = {
    "check_class_weight_classifiers":
        "with n_jobs=2 one multinomial problem trains by iterative parameter mixing "
        "(McDonald, Hall and Mann 2010): two shards of 25 rows of the check's overlapping "
        "blobs, their weights averaged after each epoch; the mixture of the two class-weighted "
        "perceptrons gives class 0 to 42% of the test rows (3 blobs), below the check's 87% "
        "(n_jobs=1 gives 100%)",
}


def expected_failures(estimator):
    failures = dict(getattr(estimator, "_sklearn_expected_failures", {}))
    if not isinstance(estimator, Perceptron):
        return failures
    if estimator.early_stopping:
        failures.update(EARLY_STOPPING_FAILURES)
    if not estimator.fit_intercept:
        failures.update(NO_INTERCEPT_FAILURES)
    if not estimator.shuffle:
        failures.update(FIXED_ORDER_FAILURES)
    if estimator.n_jobs not in (None, 1) and estimator.multiclass == "multinomial":
        failures.update(MIXING_FAILURES)
    return failures


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failures)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_expected_failures_really_fail(estimator):
    # listed failures are real: they are not a way of skipping a check
    from sklearn.utils import estimator_checks

    for name, why in expected_failures(estimator).items():
        assert len(why) > 40, name  # each one says why
        check = getattr(estimator_checks, name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(AssertionError):
                check(type(estimator).__name__, clone(estimator))


def test_errors_are_also_sklearn_classes():
    from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
    from sklearn.exceptions import NotFittedError as SkNotFittedError

    with pytest.raises(SkNotFittedError):
        Perceptron().predict([[1.0]])
    with pytest.raises(NotFittedError):
        Perceptron().predict([[1.0]])
    with pytest.warns(SkConvergenceWarning):
        Perceptron(max_iter=3).fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0])


def data(rng, n=300, d=6):
    X = rng.standard_normal((n, d)) * 10 + 3
    y = (X @ rng.standard_normal(d) > np.median(X @ rng.standard_normal(d))).astype(int)
    return X, y


def test_pipeline_grid_search_cross_val_and_clone(rng):
    X, y = data(rng)
    pipe = make_pipeline(StandardScaler(), Perceptron(random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores = cross_val_score(pipe, X, y, cv=3)
        assert scores.shape == (3,) and (scores > 0.4).all()
        grid = GridSearchCV(pipe, {"perceptron__average": [False, True],
                                   "perceptron__max_iter": [5, 20]}, cv=3)
        grid.fit(X, y)
    assert set(grid.best_params_) == {"perceptron__average", "perceptron__max_iter"}
    assert grid.score(X, y) > 0.5
    model = Perceptron(eta0=0.5, average=True, random_state=3)
    twin = clone(model)
    assert twin.get_params() == model.get_params() and twin is not model


def test_pandas_dataframe_feature_names(rng):
    pd = pytest.importorskip("pandas")
    X, y = data(rng, d=3)
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    for est in (Perceptron(random_state=0), VotedPerceptron(random_state=0),
                CentroidClassifier()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(df, pd.Series(y))
        assert list(est.feature_names_in_) == ["a", "b", "c"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            np.testing.assert_array_equal(est.predict(df), est.predict(X))
        with pytest.raises(ValueError, match="feature names should match"):
            est.predict(df[["c", "b", "a"]])
        with pytest.warns(UserWarning, match="does not have valid feature names"):
            est.predict(X)
        est.fit(X, y)
        assert not hasattr(est, "feature_names_in_")
        with pytest.warns(UserWarning, match="fitted without feature names"):
            est.predict(df)
    with pytest.raises(TypeError, match="string names"):
        Perceptron().fit(pd.DataFrame(X, columns=["a", 1, "c"]), y)


def test_float32_dataframe_stays_float32(rng):
    pd = pytest.importorskip("pandas")
    X, y = data(rng, d=3)
    df = pd.DataFrame(X.astype(np.float32), columns=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m = Perceptron(random_state=0).fit(df, y)
    assert m.coef_.dtype == np.float32
